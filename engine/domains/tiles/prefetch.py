"""``prefetch(array, index)``: ask the processor to bring ``array[index]`` into its caches, without waiting for it.

A compiled search that reads several random entries of a table far larger than the caches (a pattern database)
computes where each lies, requests them all with this, and only then reads them: the reads then wait for memory
together instead of one after another. It changes no value; numba has no such call, so this one emits LLVM's
``llvm.prefetch`` intrinsic (a read, kept in every cache level). ``tests/engine/domains/tiles/test_prefetch.py`` holds a
kernel using it equal to NumPy.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_READ = 0
_KEEP_IN_ALL_CACHES = 3
_DATA_CACHE = 1


@intrinsic
def prefetch(typingctx, array, index):
    if not isinstance(array, types.Array) or array.ndim != 1 or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        index_value = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [index_value], wraparound=False,
                                           boundscheck=False)
        i32 = ir.IntType(32)
        # one declaration per module, whatever the array's type: the address goes in as a byte pointer
        address = builder.bitcast(pointer, cgutils.voidptr_t)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(function, [address, i32(_READ), i32(_KEEP_IN_ALL_CACHES), i32(_DATA_CACHE)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
