// The step-through's view as a URL (app/step.py's view_from_query and query_for read and write it). The page keeps
// its address equal to what it shows (history.replaceState) and announces every change with a "stepview:change" event; other scripts read the
// view with currentViewUrl() and apply one with showView(url), without a reload when the page can show it itself (a
// saved view's short address, /v/<id>?step=N, included: app/links.py).
// A page that follows someone else's view (a student following the teacher) calls setFollowing(true): from the
// moment its user steps or changes the view themselves, showView leaves them alone until setFollowing(true) again.
let host = null; // the page's handler: {url(), accepts(URL), apply(URL)}, registered by page.js
let following = false,
  tookOver = false;

export function registerView(handler) {
  host = handler;
}

export function currentViewUrl() {
  return host ? host.url() : window.location.pathname + window.location.search;
}

export async function showView(url) {
  const target = new URL(url, window.location.href);
  if (following && tookOver) return false;
  if (host && host.accepts(target)) {
    await host.apply(target);
    return true;
  }
  window.location.assign(target.href);
  return true;
}

// The page's view was saved on the server (a class started on it): the page writes its short address from now on.
export function adoptView(url) {
  if (host && host.adopt) host.adopt(url);
}

export function setFollowing(on) {
  following = on;
  tookOver = false;
}

// Called by the page after every change it shows; byUser: the change came from this page's own user.
export function viewChanged(byUser) {
  if (following && byUser) tookOver = true;
  const url = currentViewUrl();
  if (url !== window.location.pathname + window.location.search)
    window.history.replaceState(window.history.state, "", url);
  document.dispatchEvent(new CustomEvent("stepview:change", { detail: { url } }));
}
