import { IndexedAttempt, MessageTimeline } from '../index/attempt-index';
import { SampledCall } from '../index/call-sample';
import { DeadLetterView, DestinationSummary } from '../console-views';
import { html, SafeHtml } from './html';

export interface Source {
  id: string;
  name: string;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330}
header{background:#1d2330;color:#fff;padding:.6rem 1rem;display:flex;gap:1.2rem;align-items:center;flex-wrap:wrap}
header a{color:#cfe0ff;text-decoration:none}header strong{margin-right:1rem}header form{margin-left:auto}
main{padding:1rem}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
th,td{border-bottom:1px solid #dde;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f5f9}pre{margin:0;white-space:pre-wrap;word-break:break-all;max-width:48rem;font-size:12px}
.delivered{color:#176d2c}.dead-lettered{color:#a01818}.retry-scheduled,.next-url{color:#9a5b00}
.notice{background:#eef6ee;padding:.5rem}.error{background:#fbeaea;padding:.5rem}form.inline{display:inline}
input,select,button,textarea{font:inherit;padding:.2rem .4rem}
fieldset{margin:.6rem 0;border:1px solid #dde}label{margin-right:.6rem}.hint{color:#5a6275;font-size:12px}
.write-key{font-size:16px;background:#fff8d6;padding:.2rem .4rem}.actions form,.actions a{margin-right:.4rem}`;

/** How often a live page updates: by its script, or by reloading where scripts do not run. */
export const LIVE_UPDATE_SECONDS = 2;

/**
 * The frame of every page. `liveScript` keeps the page up to date; without scripts the page reloads
 * itself instead. `script` adds conveniences the page works without.
 */
export function layout(
  title: string,
  body: SafeHtml,
  options: { sources?: Source[]; liveScript?: string; script?: string } = {},
): SafeHtml {
  const nav = options.sources
    ? html`<a href="/sources">Sources</a><a href="/destinations">Destinations</a><a href="/audit">Audit</a><a href="/dead-letters">Dead letters</a>
        ${options.sources.map((s) => html`<a href="/sources/${encodeURIComponent(s.id)}/debugger">Debugger: ${s.name}</a>`)}
        <form class="inline" method="get" action="/messages"><input name="messageId" placeholder="messageId" aria-label="messageId">
          <button>Find message</button></form>
        <form class="inline" method="get" action="/messages"><input name="userId" placeholder="userId or anonymousId" aria-label="userId">
          <button>Find user</button></form>
        <form class="inline" method="post" action="/logout"><button>Log out</button></form>`
    : html``;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Switchyard console</title>
${options.liveScript ? html`<script src="${options.liveScript}" defer></script><noscript><meta http-equiv="refresh" content="${LIVE_UPDATE_SECONDS}"></noscript>` : ''}
${options.script ? html`<script src="${options.script}" defer></script>` : ''}
<meta name="viewport" content="width=device-width"><style>${new SafeHtml(STYLE)}</style></head>
<body><header><strong>Switchyard console</strong>${nav}</header><main><h1>${title}</h1>${body}</main></body></html>`;
}

export function loginPage(error?: string): SafeHtml {
  return layout(
    'Log in',
    html`${error ? html`<p class="error">${error}</p>` : ''}
<form method="post" action="/login"><label>Admin token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button>Log in</button></form>`,
  );
}

export function destinationPage(
  d: DestinationSummary,
  attempts: IndexedAttempt[],
  filter: Record<string, string | undefined>,
  sources: Source[],
  setup?: SafeHtml,
): SafeHtml {
  const option = (value: string) =>
    html`<option value="${value}" ${filter.outcome === value ? html`selected` : ''}>${value || 'any'}</option>`;
  return layout(
    `Destination ${d.id}`,
    html`${setup}<h2>Health</h2><p>Requests ${d.health.requests} · success ${percent(d.health.successRate)} · p50 ${ms(d.health.p50Ms)} · p99 ${ms(d.health.p99Ms)}</p>
<form method="get"><label>Outcome <select name="outcome">${['', 'delivered', 'next-url', 'retry-scheduled', 'dead-lettered'].map(option)}</select></label>
<label>Status <input name="status" size="4" value="${filter.status ?? ''}"></label>
<label>From <input name="from" placeholder="2026-01-31T00:00:00Z" value="${filter.from ?? ''}"></label>
<label>To <input name="to" value="${filter.to ?? ''}"></label><button>Filter</button></form>
${attemptsTable(attempts, 'message')}`,
    { sources },
  );
}

export function messagesPage(
  query: { messageId?: string; userId?: string },
  messages: MessageTimeline[],
  sources: Source[],
): SafeHtml {
  const what = query.messageId ? `message ${query.messageId}` : `user ${query.userId}`;
  const sections = messages.map(
    (
      m,
    ) => html`<section class="message"><h2>${m.type ?? 'call'} ${m.event ?? ''} · <a href="/messages?messageId=${encodeURIComponent(m.messageId)}">${m.messageId}</a></h2>
<p>source ${m.sourceId} · userId ${m.userId ?? '—'} · anonymousId ${m.anonymousId ?? '—'}</p>${attemptsTable(m.attempts, 'destination')}</section>`,
  );
  return layout(
    `Timeline of ${what}`,
    messages.length > 0 ? html`${sections}` : html`<p>No attempts held for ${what}.</p>`,
    { sources },
  );
}

/** Dead letters, newest first; `canWrite` offers each one's Replay button. */
export function deadLettersPage(
  views: DeadLetterView[],
  sources: Source[],
  canWrite: boolean,
  notice?: string,
): SafeHtml {
  const rows = views.map(({ deadLetter: d, deadAttempt: a, latest }) => {
    const deadAt = d.deadAt ? Date.parse(d.deadAt) : Infinity;
    const since = latest && latest.atMs > deadAt ? latest.outcome : undefined;
    return html`<tr class="dead-letter" data-id="${d.id}"><td>${d.deadAt ?? ''}</td>
<td>${d.destinationId ? html`<a href="/destinations/${encodeURIComponent(d.destinationId)}">${d.destinationId}</a>` : '—'}</td>
<td>${d.messageId ? html`<a href="/messages?messageId=${encodeURIComponent(d.messageId)}">${d.messageId}</a>` : '—'}</td><td>${a?.type ?? ''} ${a?.event ?? ''}</td>
<td>${a?.status ?? ''}</td><td>${d.failure}: ${d.reason}</td><td>${d.attempts}</td><td class="${since ?? 'dead-lettered'}">${since ? `since: ${since}` : 'dead'}</td>
<td>${
      canWrite
        ? html`<form method="post" action="/dead-letters/replay"><input type="hidden" name="id" value="${d.id}">
${d.messageId ? html`<input type="hidden" name="messageId" value="${d.messageId}">` : ''}<button>Replay</button></form>`
        : ''
    }</td></tr>`;
  });
  return layout(
    'Dead letters',
    html`${notice ? html`<p class="notice">${notice}</p>` : ''}
<table><thead><tr><th>Dead-lettered</th><th>Destination</th><th>Message</th><th>Call</th><th>Status</th><th>Reason</th><th>Attempts</th><th>Now</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    { sources },
  );
}

/** Where the live debugger's script is served. */
export const LIVE_DEBUGGER_SCRIPT_PATH = '/assets/live-debugger.js';

export function debuggerPage(
  source: Source,
  calls: SampledCall[],
  limit: number,
  sources: Source[],
): SafeHtml {
  const rows = `/sources/${encodeURIComponent(source.id)}/debugger/rows`;
  return layout(
    `Live debugger: ${source.name}`,
    html`<p>The last calls of source ${source.id}, newest first, as ingest accepted them.
<label><input type="checkbox" id="live" checked> Live updates</label> (every ${LIVE_UPDATE_SECONDS} seconds) <span id="live-status" role="status"></span></p>
<table><thead><tr><th>Received</th><th>Type</th><th>Event / name</th><th>User</th><th>Message</th><th></th></tr></thead>
<tbody id="calls" data-rows="${rows}" data-limit="${limit}" data-every-ms="${LIVE_UPDATE_SECONDS * 1000}">${debuggerRows(calls)}</tbody></table>`,
    { sources, liveScript: LIVE_DEBUGGER_SCRIPT_PATH },
  );
}

/** The debugger's rows, each keyed by its messageId: the page's script adds the rows whose key it does not show yet. */
export function debuggerRows(calls: SampledCall[]): SafeHtml {
  return html`${calls.map(({ call }) => {
    const field = (name: string) => (typeof call[name] === 'string' ? (call[name] as string) : '');
    return html`<tr class="call" data-key="${field('messageId')}"><td>${field('receivedAt')}</td><td>${field('type')}</td><td>${field('event') || field('name')}</td>
<td>${field('userId') || field('anonymousId')}</td><td><a href="/messages?messageId=${encodeURIComponent(field('messageId'))}">${field('messageId')}</a></td>
<td><details><summary>JSON</summary><pre>${JSON.stringify(call, null, 2)}</pre></details></td></tr>`;
  })}`;
}

export function errorPage(status: number, message: string, sources?: Source[]): SafeHtml {
  return layout(`Error ${status}`, html`<p class="error">${message}</p>`, { sources });
}

/** What a refused change says: the reason, and each problem (naming its field) when there are any. */
export function refusal(message: string, problems: string[] = []): SafeHtml {
  return html`<div class="error" id="problems" role="alert"><p>${message}</p>
${problems.length > 0 ? html`<ul>${problems.map((p) => html`<li class="problem">${p}</li>`)}</ul>` : ''}</div>`;
}

/** A delete's own page: what goes, and one button that does it at the revision this page showed. */
export function confirmDeletePage(
  what: { kind: 'source' | 'destination'; id: string; revision: number },
  consequence: string,
  sources: Source[],
): SafeHtml {
  const path = `/${what.kind}s/${encodeURIComponent(what.id)}`;
  return layout(
    `Delete ${what.kind} ${what.id}?`,
    html`<p>${consequence}</p>
<form method="post" action="${path}/delete" id="delete-form"><input type="hidden" name="revision" value="${what.revision}">
<button id="confirm-delete">Delete ${what.kind} ${what.id}</button> <a href="/${what.kind}s" id="cancel-delete">Cancel</a></form>`,
    { sources },
  );
}

/** Attempts as rows; `link` names the column that leads elsewhere (the message, or the destination). */
function attemptsTable(attempts: IndexedAttempt[], link: 'message' | 'destination'): SafeHtml {
  const rows = attempts.map(
    (
      a,
    ) => html`<tr class="attempt" data-outcome="${a.outcome}" data-status="${a.status ?? ''}"><td>${a.at}</td>
<td>${link === 'message' ? html`<a href="/messages?messageId=${encodeURIComponent(a.messageId)}">${a.messageId}</a>` : html`<a href="/destinations/${encodeURIComponent(a.destinationId)}">${a.destinationId}</a>`}</td>
<td>${a.attempt}</td><td>${a.urlIndex === undefined ? '—' : `#${a.urlIndex} ${a.urlHost ?? ''}`}</td><td class="status">${a.status ?? ''}</td>
<td>${a.filter ? `${a.filter.action} rule "${a.filter.rule}"` : ''}${a.errorKind ?? ''} ${a.error ?? ''}</td><td>${ms(a.durationMs)}</td><td class="${a.outcome}">${a.outcome}</td>
<td>${a.responseBody === undefined ? '' : html`<pre class="response-body">${a.responseBody}</pre>`}</td></tr>`,
  );
  const linked = link === 'message' ? 'Message' : 'Destination';
  return html`<table><thead><tr><th>At</th><th>${linked}</th><th>Attempt</th><th>URL</th><th>Status</th><th>Error</th><th>Duration</th><th>Outcome</th><th>Response body</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

export function percent(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)} %`;
}

export function ms(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(value < 10 ? 1 : 0)} ms`;
}
