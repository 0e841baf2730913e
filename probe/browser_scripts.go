package probe

// The scripts trawl runs in pages, evaluated with Runtime.evaluate; each gives a
// JSON-serialisable value. Constants named …JS are expressions; constants that start
// with helpersJS are function bodies (they end in a return statement) and go through
// jsBody, which wraps them in a function call.

// initJS runs in every new document before the page's own scripts
// (Page.addScriptToEvaluateOnNewDocument). It keeps, in a non-enumerable
// window.__trawl, what "the page settled" needs: the time of the last DOM mutation, the
// fetch/XHR requests in flight, and a document token set before a submission (a new
// document has none, which tells a navigation from an in-place update). It also makes
// alert/confirm/prompt return at once (recording their text, sent through the
// dialogBinding): confirm answers "cancel", prompt answers nothing. A person would close the dialog; trawl must not hang on it.
const initJS = `(() => {
  if (window.__trawl) return;
  // The timer and promise of the settle wait are kept before the page's scripts can
  // replace them (a page that stubs setTimeout must not hang the wait).
  const T = {doc: '', inflight: 0, requests: 0, mutations: 0, last: performance.now(), dialogs: [],
    timer: window.setTimeout.bind(window), Promise: window.Promise};
  Object.defineProperty(window, '__trawl', {value: T, enumerable: false, configurable: false, writable: false});
  const touch = () => { T.last = performance.now(); };
  try {
    new MutationObserver((ms) => { T.mutations += ms.length; touch(); })
      .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  } catch (e) {}
  const F = window.fetch;
  if (F) {
    window.fetch = function () {
      T.inflight++; T.requests++; touch();
      let p;
      try { p = F.apply(this, arguments); } catch (e) { T.inflight--; throw e; }
      return p.finally(() => { T.inflight--; touch(); });
    };
  }
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    T.inflight++; T.requests++; touch();
    this.addEventListener('loadend', () => { T.inflight--; touch(); }, {once: true});
    try { return send.apply(this, arguments); } catch (e) { T.inflight--; throw e; }
  };
  // A dialog's text goes to the Go side through the __trawlDialog binding (a protocol
  // event, sent before a navigation the dialog's handler starts can discard this
  // document); without the binding it waits in T.dialogs for the next state read.
  const bound = window.__trawlDialog;
  let noted = 0;
  const note = (kind, m) => {
    touch();
    if (noted >= 50) return;
    noted++;
    const text = kind + ': ' + String(m).slice(0, 200);
    const b = typeof bound === 'function' ? bound : window.__trawlDialog;
    if (typeof b === 'function') { try { b(text); return; } catch (e) {} }
    T.dialogs.push(text);
  };
  window.alert = function (m) { note('alert', m); };
  window.confirm = function (m) { note('confirm', m); return false; };
  window.prompt = function (m) { note('prompt', m); return null; };
  window.print = function () {};
  window.open = function (u) { note('window.open', u); return null; };
})();`

// settleWaitFmt waits in the page until the document looks settled, then gives the
// state the Go side reads (docState). Arguments: the document token of the caller ("" after a
// navigation: any document counts as new), Quiet in ms, and the longest wait in ms.
// It resolves at once when the document is complete, has no fetch/XHR in flight, has
// changed (new document, DOM mutation or script request) and has been quiet long
// enough (a third of Quiet when its scripts made no request; no wait at all for a
// complete document that has nothing that could run: no script, frame, plug-in, meta
// refresh or on… attribute); otherwise after the
// longest wait, with the state as it is. The Go side decides; this only saves the
// round trips of polling through the browser process, which was the busiest process
// with four tabs.
const settleWaitFmt = `new ((window.__trawl && window.__trawl.Promise) || Promise)((resolve) => {
  const token = %q, quietMs = %d, maxMs = %d, t0 = performance.now();
  const later = (window.__trawl && window.__trawl.timer) || setTimeout;
  const state = () => {
    const T = window.__trawl;
    return {
      doc: T ? T.doc : '', hooked: !!T, ready: document.readyState,
      inflight: T ? T.inflight : 0, quiet: T ? performance.now() - T.last : 1e9,
      mutations: T ? T.mutations : 0, requests: T ? T.requests : 0,
      dialogs: T ? T.dialogs.splice(0) : [], url: location.href, size: 0,
      scriptless: T ? T.scriptless === true : false, leaving: T ? T.leaving === true : false
    };
  };
  const scriptless = (T) => {
    if (T.scriptless === undefined && document.readyState === 'complete') {
      T.scriptless = !document.querySelector(
        'script:not([type="application/ld+json" i]):not([type="application/json" i]), iframe, frame, object, embed, meta[http-equiv="refresh" i]') &&
        document.evaluate("count(//@*[starts-with(translate(name(), 'ON', 'on'), 'on')])", document, null, XPathResult.NUMBER_TYPE, null).numberValue === 0;
    }
    return T.scriptless === true;
  };
  const check = () => {
    const T = window.__trawl;
    // Dialogs are reported at once: the document that opened them may be about to
    // be replaced (a confirm in an onsubmit handler).
    let done = performance.now() - t0 >= maxMs || !T || T.dialogs.length > 0;
    if (!done && !(token !== '' && T.doc === token && T.leaving)) {
      const changed = token === '' || T.doc !== token || T.mutations > 0 || T.requests > 0;
      const need = scriptless(T) ? 0 : T.requests === 0 ? quietMs / 3 : quietMs;
      done = changed && document.readyState === 'complete' && T.inflight === 0 && performance.now() - T.last >= need;
    }
    if (done) { resolve(state()); } else { later(check, 10); }
  };
  check();
})`

// pageSigJS is a function expression that signs the rendered text of the document's
// body (FNV-1a over its text with white space collapsed, and the text's length), so that
// a result page can be told from the unchanged form page without moving the page twice.
const pageSigJS = `(() => {
  const b = document.body;
  if (!b) return '';
  const s = (b.innerText || '').replace(/\s+/g, ' ').trim();
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return (h >>> 0).toString(16) + ':' + s.length;
})`

// markJS (with a %q token) marks the current document before a submission, resets its
// change counters, watches for the document being left (beforeunload: a navigation
// away started) and returns {ok, sig} with the signature of the page (pageSigJS).
const markJS = `(() => {
  const T = window.__trawl;
  if (!T) { return {ok: false, sig: ''}; }
  T.doc = %q; T.mutations = 0; T.requests = 0; T.leaving = false;
  if (!T.leaveHook) {
    T.leaveHook = true;
    window.addEventListener('beforeunload', () => { T.leaving = true; }, true);
  }
  return {ok: true, sig: ` + pageSigJS + `()};
})()`

// captureFmt (with the %d limit in UTF-16 units) serialises the document (doctype
// and the root element's outerHTML) in one evaluation: the HTML when it is within
// the limit, its size either way, the URL, the dialogs not yet reported, and what
// tells a real page from a passing or empty one: the elements in its body, the length
// of its rendered text and its signature (pageSigJS).
const captureFmt = `(() => {
  const T = window.__trawl;
  const html = (document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\n' : '') +
    (document.documentElement ? document.documentElement.outerHTML : '');
  const b = document.body;
  return {url: location.href, size: html.length, html: html.length <= %d ? html : '',
    dialogs: T ? T.dialogs.splice(0) : [],
    body: b ? b.getElementsByTagName('*').length : 0,
    text: b ? (b.innerText || '').trim().length : 0,
    sig: ` + pageSigJS + `()};
})()`

// helpersJS is the prelude of the form scripts: locating the form and its controls,
// setting values as the browser's own setters do, and finding click points.
const helpersJS = `
const H = {
  byXPath(xp) {
    // In an XHTML document (application/xhtml+xml) the elements are in the XHTML
    // namespace, which unprefixed name tests do not match: test local names there.
    if (!(document instanceof HTMLDocument) || document.contentType.includes('xml')) {
      xp = xp.replace(/\/([A-Za-z][\w-]*)(?=\[|\/|$)/g, "/*[local-name()='$1']");
    }
    try { return document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue; }
    catch (e) { return null; }
  },
  root(xp) {
    if (!xp) return document.body || document.documentElement;
    return H.byXPath(xp);
  },
  controls(root, name) {
    const all = (root instanceof HTMLFormElement) ? Array.from(root.elements)
      : Array.from(root.querySelectorAll('input,select,textarea,button'));
    return all.filter(e => e.getAttribute('name') === name);
  },
  find(root, f) {
    let els = (f.name && root) ? H.controls(root, f.name) : [];
    if (!els.length && f.xpath) { const e = H.byXPath(f.xpath); if (e) els = [e]; }
    if (!els.length && f.id) { const e = document.getElementById(f.id); if (e) els = [e]; }
    if (!els.length && f.name) els = Array.from(document.getElementsByName(f.name));
    return els;
  },
  visible(e) {
    if (!e || !e.getBoundingClientRect) return false;
    // checkVisibility also sees what the box does not tell: content of a closed
    // <details>, content-visibility: hidden, a display: none ancestor.
    if (e.checkVisibility && !e.checkVisibility({visibilityProperty: true})) return false;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  },
  setValue(e, v) {
    const proto = (e instanceof HTMLTextAreaElement) ? HTMLTextAreaElement.prototype
      : (e instanceof HTMLSelectElement) ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    const d = Object.getOwnPropertyDescriptor(proto, 'value');
    if (d && d.set) d.set.call(e, v); else e.value = v;
  },
  fire(e, type) { e.dispatchEvent(new Event(type, {bubbles: true})); },
  fold(s) { return String(s || '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim(); },
  point(e) {
    e.scrollIntoView({block: 'center', inline: 'center'});
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {x: x, y: y, hit: !!hit && (hit === e || e.contains(hit) || hit.contains(e))};
  },
  name(e) { return e.getAttribute('name') || e.id || e.tagName.toLowerCase(); }
};
`

// fillJS (with a %s JSON spec) sets the non-text controls, clears the text controls to
// be typed into and keeps them in window.__trawlEls for the typing step. The spec is
// {form, fields: [{name, id, xpath, kind, value}]} with kind text, select, radio or
// checkbox. It returns {found, errors, text: [index of each text field in __trawlEls]}.
const fillJS = helpersJS + `
return ((spec) => {
  const root = H.root(spec.form);
  if (!root) return {found: false, errors: ['the form (' + spec.form + ') is not in the page'], text: []};
  const errors = [], text = [];
  window.__trawlEls = [];
  for (const f of spec.fields) {
    const els = H.find(root, f);
    if (!els.length) { errors.push('field ' + (f.name || f.id || f.xpath) + ' is not in the page'); continue; }
    if (f.kind === 'text') {
      const e = els.find(H.visible) || els[0];
      if (e.disabled || e.readOnly) { errors.push('field ' + f.name + ' is disabled or read-only'); continue; }
      e.focus();
      H.setValue(e, ''); H.fire(e, 'input');
      window.__trawlEls.push(e);
      text.push(window.__trawlEls.length - 1);
    } else if (f.kind === 'select') {
      const e = els[0];
      if (!(e instanceof HTMLSelectElement)) { errors.push('field ' + f.name + ' is not a select'); continue; }
      const opts = Array.from(e.options);
      const o = opts.find(o => o.value === f.value) || opts.find(o => H.fold(o.text) === H.fold(f.value));
      if (!o) { errors.push('field ' + f.name + ' has no option ' + JSON.stringify(f.value)); continue; }
      if (e.multiple) opts.forEach(x => { x.selected = (x === o); }); else e.value = o.value;
      H.fire(e, 'input'); H.fire(e, 'change');
    } else if (f.kind === 'radio') {
      const e = els.find(x => x.value === f.value);
      if (!e) { errors.push('radio group ' + f.name + ' has no option ' + JSON.stringify(f.value)); continue; }
      if (!e.checked) e.click();
      if (!e.checked) { e.checked = true; H.fire(e, 'input'); H.fire(e, 'change'); }
    } else if (f.kind === 'checkbox') {
      const want = f.value === '' ? [] : f.value.split('\u001f');
      for (const w of want) { if (!els.some(x => x.value === w)) errors.push('checkbox group ' + f.name + ' has no option ' + JSON.stringify(w)); }
      for (const e of els) {
        const on = want.includes(e.value);
        if (e.checked !== on) e.click();
        if (e.checked !== on) { e.checked = on; H.fire(e, 'input'); H.fire(e, 'change'); }
      }
    } else if (f.kind === 'value') {
      const e = els[0];
      H.setValue(e, f.value); H.fire(e, 'input'); H.fire(e, 'change');
    }
  }
  return {found: true, errors: errors, text: text};
})(%s);`

// focusJS (with %d) focuses text control i of window.__trawlEls.
const focusJS = `(() => { const e = (window.__trawlEls || [])[%d]; if (!e) return false; e.focus(); return document.activeElement === e; })()`

// checkJS (with %d and a %q value) makes sure text control i holds the value: if typing
// did not give it (a script, an input mask), the value is set directly. It returns the
// value the control ends with.
const checkJS = helpersJS + `
return ((i, v) => {
  const e = (window.__trawlEls || [])[i];
  if (!e) return null;
  if (e.value !== v) { H.setValue(e, v); H.fire(e, 'input'); }
  H.fire(e, 'change');
  return e.value;
})(%d, %q);`

// validateJS (with the %q form XPath) runs the browser's constraint validation of a
// <form> and returns the first problem as "name: message", or "".
const validateJS = helpersJS + `
return ((xp) => {
  const root = H.root(xp);
  if (!(root instanceof HTMLFormElement) || root.noValidate) return '';
  if (root.checkValidity()) return '';
  const bad = Array.from(root.elements).find(e => e.willValidate && !e.checkValidity());
  return bad ? H.name(bad) + ': ' + bad.validationMessage : 'the form is invalid';
})(%q);`

// triggerJS (with a %s JSON spec {form, submit: {name,id,xpath}|null, text: index of
// the keyword control in __trawlEls or -1}) chooses how to submit: click the submit
// control (returning its centre), press Enter in the keyword box, or call
// requestSubmit. It keeps the control in window.__trawlSubmit.
const triggerJS = helpersJS + `
return ((spec) => {
  const root = H.root(spec.form);
  if (!root) return {how: 'none', why: 'the form is not in the page'};
  let btn = null;
  if (spec.submit) { const els = H.find(root, spec.submit); btn = els.find(H.visible) || els[0] || null; }
  if (!btn && root instanceof HTMLFormElement) {
    btn = Array.from(root.elements).find(e => H.visible(e) && (
      (e instanceof HTMLButtonElement && (e.type === 'submit')) ||
      (e instanceof HTMLInputElement && (e.type === 'submit' || e.type === 'image'))));
  }
  if (!btn && !(root instanceof HTMLFormElement)) {
    const cands = Array.from(root.querySelectorAll('button, input[type=button], input[type=submit], input[type=image], [role=button], a[role=button]')).filter(H.visible);
    btn = cands.find(e => /search|find|go|submit|look|ok|rechercher|suchen|buscar|cerca/i.test((e.innerText || e.value || '') + ' ' + (e.getAttribute('aria-label') || '') + ' ' + (e.title || '') + ' ' + (e.id || '') + ' ' + (e.className || '')))
      || (cands.length === 1 ? cands[0] : null);
  }
  window.__trawlSubmit = btn;
  if (btn) { const p = H.point(btn); return {how: 'click', x: p.x, y: p.y, hit: p.hit}; }
  if (spec.text >= 0 && (window.__trawlEls || [])[spec.text]) return {how: 'enter'};
  if (root instanceof HTMLFormElement) return {how: 'submit'};
  return {how: 'none', why: 'no submit control, no text box and no <form> element'};
})(%s);`

// clickStashedJS clicks window.__trawlSubmit (or __trawlNext) from script, for a
// control that a mouse cannot reach (covered or off-screen).
const clickStashedJS = `(() => { const e = window[%q]; if (!e) return false; e.click(); return true; })()`

// textFilledJS (with the %q form XPath) counts the form's enabled text boxes that hold
// more than spaces, just before a submission: what the site gets, whatever the page
// put there itself (a value kept from an earlier query in a cookie). -1: no form.
const textFilledJS = helpersJS + `
return ((xp) => {
  const root = H.root(xp);
  if (!root) return -1;
  const els = root instanceof HTMLFormElement ? Array.from(root.elements) : Array.from(root.querySelectorAll('input, textarea'));
  const text = new Set(['text', 'search', 'email', 'url', 'tel', 'password']);
  return els.filter(e => !e.disabled && (e instanceof HTMLTextAreaElement || (e instanceof HTMLInputElement && text.has(e.type))) &&
    (e.value || '').trim() !== '').length;
})(%q);`

// requestSubmitJS submits the form like its submit button would (firing submit
// handlers), for forms without a submit control.
const requestSubmitJS = helpersJS + `
return ((xp) => {
  const f = H.root(xp);
  if (!(f instanceof HTMLFormElement)) return false;
  if (f.requestSubmit) f.requestSubmit(); else f.submit();
  return true;
})(%q);`

// nextJS (with the 1-based %d number of the current page and the %q XPath of the
// search form) finds the control that leads to the next result page: rel=next, a
// "next" word or arrow in the text, aria-label, title, id or class, or the link to the
// following page number. It keeps it in window.__trawlNext and returns {found, how,
// href, text, x, y, hit}.
const nextJS = helpersJS + `
return ((k, formXP) => {
  const form = formXP ? H.byXPath(formXP) : null;
  const words = ['next', 'next page', 'next results', 'more results', 'older', 'older posts', 'older entries',
    'suivant', 'suivante', 'page suivante', 'weiter', 'nachste', 'nachste seite', 'siguiente', 'successivo',
    'successiva', 'volgende', 'proxima', 'avanti'];
  const arrows = /^[\s›»>→⟩⇒▶►]+$/;
  const prevRE = /\b(prev|previous|back|first|last|zuruck|precedent|anterior)\b|[«‹←⟨◀◄]/i;
  const more = ['load more', 'show more', 'more', 'see more', 'view more'];
  const isNum = (s) => /^\d+$/.test(s);
  let best = null, bestScore = 0;
  const cands = document.querySelectorAll('a[href], button, input[type=submit], input[type=button], [role=button], [role=link]');
  for (const e of cands) {
    if (form && form.contains(e)) continue;
    if (!H.visible(e)) continue;
    if (e.disabled || e.getAttribute('aria-disabled') === 'true') continue;
    const cls = ((typeof e.className === 'string' ? e.className : '') + ' ' + (e.id || '')).toLowerCase();
    if (/\bdisabled\b/.test(cls)) continue;
    const text = H.fold(e.innerText || e.value || '');
    const label = H.fold((e.getAttribute('aria-label') || '') + ' ' + (e.title || ''));
    const bare = text.replace(/[\s›»>→⟩⇒▶►:.]+$/g, '').replace(/^[\s‹«<←]+/, '').trim();
    const rel = (e.getAttribute('rel') || '').toLowerCase().split(/\s+/);
    let score = 0;
    if (rel.includes('next')) score = 100;
    else if (prevRE.test(text + ' ' + label + ' ' + cls.replace(/[-_]/g, ' '))) continue;
    else if (words.includes(bare) || words.includes(label.trim())) score = 90;
    else if (/^next\b/.test(text) || /^next\b/.test(label.trim())) score = 85;
    else if (text !== '' && arrows.test(text)) score = 80;
    else if (/(^|[\s_-])next($|[\s_-])/.test(cls)) score = 70;
    else if (bare === String(k + 1)) {
      const box = e.parentElement && e.parentElement.parentElement;
      const nums = box ? Array.from(box.querySelectorAll('a, button, b, strong, span, em')).filter(x => isNum(H.fold(x.innerText))).length : 0;
      if (nums >= 2) score = 60;
    } else if (more.includes(bare)) score = 50;
    if (score > bestScore) { best = e; bestScore = score; }
  }
  if (!best) {
    const l = document.querySelector('link[rel~=next][href]');
    if (l) return {found: true, how: 'goto', href: l.href, text: 'link rel=next'};
    return {found: false};
  }
  window.__trawlNext = best;
  const p = H.point(best);
  const href = (best instanceof HTMLAnchorElement) ? best.href : '';
  if (best instanceof HTMLAnchorElement) best.removeAttribute('target');
  if (best.form) best.form.removeAttribute('target');
  return {found: true, how: 'click', href: href, text: (best.innerText || best.value || best.getAttribute('aria-label') || '').trim().slice(0, 60), x: p.x, y: p.y, hit: p.hit};
})(%d, %q);`

// rectJS (with a %q XPath; empty = the whole page) returns the page coordinates of an
// element for a screenshot, or null.
const rectJS = helpersJS + `
return ((xp) => {
  const e = xp ? H.byXPath(xp) : document.documentElement;
  if (!e || !e.getBoundingClientRect) return null;
  const r = e.getBoundingClientRect();
  const w = xp ? r.width : Math.max(document.documentElement.scrollWidth, r.width);
  const h = xp ? r.height : Math.max(document.documentElement.scrollHeight, r.height);
  if (w < 1 || h < 1) return null;
  return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: w, h: h};
})(%q);`

// revealJS (with a %s JSON spec {form, fields}) finds the first field of the spec that
// a person could not see (in a collapsed panel, a closed <details>, an inactive tab)
// and the control that shows it: the <summary> of the closed <details> around it, else
// a visible control that names the hidden container (aria-controls, href="#id",
// data-target or data-bs-target), else a toggle right before a hidden container (a
// collapsed control, a button, a link to "#", a control with a click handler) or the
// legend of its fieldset. It keeps the control in window.__trawlReveal and returns
// {field, control, x, y, hit, details}, or null when every field is visible or nothing
// shows the hidden ones. Fields set by value (hidden inputs, dates) need not be seen.
// A <details> without a visible summary is opened by script (details: true). Controls
// that would submit a form or leave the page are never chosen.
const revealJS = helpersJS + `
return ((spec) => {
  const root = H.root(spec.form);
  if (!root) return null;
  const text = (e) => ((e.innerText || e.value || e.getAttribute('aria-label') || e.title || '').trim().replace(/\s+/g, ' ').slice(0, 60));
  // A control whose words say it acts (deletes, saves, sends, buys, logs out) is not
  // a toggle a person would click to see a field.
  const acts = /\b(delete|remove|clear|reset|log ?out|sign ?out|buy|order|pay|subscribe|save|submit|send|post|apply)\b/i;
  const safe = (c) => {
    if (!H.visible(c) || c.disabled) return false;
    if (acts.test(text(c))) return false;
    if ((c instanceof HTMLButtonElement && c.type === 'submit' && c.form) ||
        (c instanceof HTMLInputElement && (c.type === 'submit' || c.type === 'image'))) return false;
    if (c instanceof HTMLAnchorElement) {
      const h = c.getAttribute('href') || '';
      if (h !== '' && !h.startsWith('#') && !h.toLowerCase().startsWith('javascript:')) return false;
    }
    return true;
  };
  const pick = (f, c) => {
    window.__trawlReveal = c;
    const p = H.point(c);
    return {field: f.name, control: text(c) || c.tagName.toLowerCase(), x: p.x, y: p.y, hit: p.hit, details: false};
  };
  const togglers = Array.from(document.querySelectorAll(
    '[aria-controls], a[href^="#"], [data-target], [data-bs-target], [aria-expanded="false"]')).filter(safe);
  for (const f of spec.fields) {
    if (f.kind === 'value') continue;
    const els = H.find(root, f);
    if (!els.length || els.some(H.visible)) continue;
    const e = els[0];
    for (let a = e.parentElement; a; a = a.parentElement) {
      if (a instanceof HTMLDetailsElement && !a.open) {
        const s = a.querySelector(':scope > summary');
        if (s && safe(s)) return pick(f, s);
        a.open = true;
        return {field: f.name, control: 'details', details: true};
      }
    }
    // The hidden containers, innermost first, up to the first visible ancestor.
    const hidden = [];
    for (let a = e.parentElement; a && a !== document.body && !H.visible(a); a = a.parentElement) hidden.push(a);
    for (const a of hidden) {
      for (const c of togglers) {
        if (a.contains(c)) continue;
        const ids = (c.getAttribute('aria-controls') || '').split(/\s+/).filter(Boolean);
        const href = c.getAttribute('href') || '';
        const target = c.getAttribute('data-bs-target') || c.getAttribute('data-target') || '';
        let hit = (a.id && (ids.includes(a.id) || href === '#' + a.id));
        if (!hit && target) { try { hit = a.matches(target); } catch (err) {} }
        if (hit) return pick(f, c);
      }
    }
    // A toggle just before a hidden container, as a person finds it: a collapsed
    // control (aria-expanded="false") first, else a button, a link to "#" or a
    // control with a click handler among the three elements before it, or the legend
    // of its fieldset.
    const toggle = '[aria-expanded="false"], button[type="button"], a[href="#"], a[href^="#"], a[href^="javascript:"], [onclick], [role="button"], summary';
    for (const sel of ['[aria-expanded="false"]', toggle]) {
      for (const a of hidden) {
        for (let s = a.previousElementSibling, n = 0; s && n < 3; s = s.previousElementSibling, n++) {
          const c = s.matches(sel) ? s : s.querySelector(sel);
          if (c && safe(c)) return pick(f, c);
        }
        const lg = a.parentElement && a.parentElement.tagName === 'FIELDSET' ? a.parentElement.querySelector(':scope > legend') : null;
        if (lg) {
          const c = lg.matches(sel) ? lg : lg.querySelector(sel);
          if (c && safe(c)) return pick(f, c);
        }
      }
    }
  }
  return null;
})(%s);`

// dialogBinding is the name of the Runtime binding through which initJS reports the
// dialogs it answers (runtime.EventBindingCalled on the tab).
const dialogBinding = "__trawlDialog"
