// The buyer's proof page: plain HTML, no script, in the shop's own name, logo and colour. It works
// as forms alone (a phone, an old browser), shows only the one line the link was made for, and
// says in a sentence why a link cannot be used.
import type { ProofView } from './waits';

const esc = (t: string) => t.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Black or white, whichever reads better on the shop's colour (WCAG relative luminance). */
function textOn(hex: string): string {
  const h = hex.replace('#', '');
  const full = h.length <= 4 ? [...h.slice(0, 3)].map((c) => c + c).join('') : h.slice(0, 6);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

function shell(site: ProofView['site'] | undefined, title: string, body: string): string {
  const color = site?.color ?? '#222222';
  const name = site?.name ?? 'Proof';
  const logo = site?.logo ? `<img class="logo" src="${esc(site.logo)}" alt="${esc(name)}">` : `<span class="name">${esc(name)}</span>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} · ${esc(name)}</title>
<style>
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1a1a1a;background:#f5f5f5;line-height:1.5}
header{background:${color};color:${textOn(color)};padding:12px 16px;display:flex;align-items:center;gap:12px}
header .logo{max-height:40px;max-width:160px;background:#fff;border-radius:4px;padding:2px}
header .name{font-weight:700;font-size:1.1rem}
main{max-width:640px;margin:0 auto;padding:16px}
h1{font-size:1.4rem;margin:8px 0 12px}
.pages{display:grid;gap:12px;margin:16px 0}
.pages img{width:100%;height:auto;border:1px solid #bbb;background:#fff}
dl{background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
dt{font-weight:700}dd{margin:0 0 8px}
.button{display:block;width:100%;min-height:48px;border:0;border-radius:6px;font-size:1.05rem;font-weight:700;cursor:pointer;margin:8px 0}
.approve{background:${color};color:${textOn(color)}}
.change{background:#fff;color:#1a1a1a;border:2px solid #1a1a1a}
label{display:block;font-weight:700;margin-top:16px}
textarea{width:100%;min-height:96px;font:inherit;padding:8px;border:2px solid #555;border-radius:6px}
.note{background:#fff;border-left:6px solid ${color};padding:12px 16px;margin:16px 0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
</style>
</head>
<body>
<header>${logo}</header>
<main>
${body}
</main>
</body>
</html>`;
}

/** A link that cannot be used: the sentence, in the shop's look when the link named one. */
export function proofRefusalPage(sentence: string, site?: ProofView['site']): string {
  return shell(site, 'Proof link', `<h1>This link cannot be used</h1>\n<p class="note" role="alert">${esc(sentence)}</p>`);
}

export function proofPage(view: ProofView, token: string, notice?: string): string {
  const t = encodeURIComponent(token);
  const pages = view.pages.length
    ? `<div class="pages">${view.pages.map((u, i) => `<img src="${esc(u)}" alt="Page ${i + 1} of ${view.pages.length} of your proof" width="592">`).join('')}</div>`
    : '<p class="note">The pages of your proof cannot be shown right now; the e-mail has them too.</p>';
  const details = view.personalisation.length ? `<dl>${view.personalisation.map((p) => `<dt>${esc(p.name)}</dt><dd>${esc(p.value)}</dd>`).join('')}</dl>` : '';
  const status = notice ? `<p class="note" role="status">${esc(notice)}</p>` : '';
  let answer = '';
  if (view.state === 'waiting') {
    answer = `<p>Check every page carefully: this is exactly what will be printed. Nothing is made until you approve it.</p>
<form method="post" action="/api/proofs/${t}/approve"><button class="button approve" type="submit">Approve and print</button></form>
<form method="post" action="/api/proofs/${t}/request-change">
<label for="message">What should we change?</label>
<textarea id="message" name="message" required maxlength="2000"></textarea>
<button class="button change" type="submit">Ask for a change</button>
</form>`;
  } else if (view.state === 'approved') answer = '<p class="note" role="status">You approved this proof. Thank you: it is being made.</p>';
  else if (view.state === 'change') answer = `<p class="note" role="status">You asked for a change${view.message ? `: “${esc(view.message)}”` : ''}. We will send you a new proof.</p>`;
  else answer = '<p class="note" role="status">This proof needs no answer any more: the shop has taken care of it.</p>';
  return shell(
    view.site,
    `Your proof for ${view.orderName}`,
    `<h1>Your proof for ${esc(view.orderName)}</h1>\n<p>${esc(view.lineName)}</p>\n${status}${details}${pages}${answer}`,
  );
}
