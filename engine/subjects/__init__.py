"""What the seeds study on top of the domains: research (seed 000), meta (001), learned (002), classic (004)."""
