import type { DestinationSummary } from '../console-views';
import type { ResourceView } from '../workspace/workspace-admin';
import { controlId, DestinationForm, field } from './destination-form';
import type { DestinationTestReport } from './destination-tester';
import { html, SafeHtml } from './html';
import { layout, ms, percent, refusal, Source } from './pages';

type Plain = Record<string, unknown>;

interface Webhook {
  url: string;
  headers?: Record<string, string>;
}

const settingsOf = (resource: Plain) =>
  (resource.settings ?? {}) as { sharedSecret?: string; webhooks?: Webhook[] };
const sourcesOf = (resource: Plain) => (Array.isArray(resource.sources) ? resource.sources.map(String) : []);
const pathOf = (id: string) => `/destinations/${encodeURIComponent(id)}`;

/**
 * The one Destinations page: each destination's setup (from the workspace) beside its health
 * (from the attempts held), configured ones first, then any that only have attempts left.
 */
export function destinationsPage(
  summaries: DestinationSummary[],
  setups: ResourceView[],
  canWrite: boolean,
  sources: Source[],
): SafeHtml {
  const setupOf = new Map(setups.map((v) => [String(v.resource.id), v]));
  const rows = summaries.map((d) => {
    const h = d.health;
    const setup = setupOf.get(d.id)?.resource;
    const enabled = setup ? setup.enabled === true : d.enabled;
    return html`<tr class="destination" data-id="${d.id}"><td><a href="${pathOf(d.id)}">${d.id}</a></td><td>${setup ? (setup.name ?? setup.type) : (d.name ?? '(not configured)')}</td>
<td>${enabled === undefined ? '' : enabled ? 'yes' : 'no'}</td><td>${setup ? sourcesOf(setup).join(', ') : ''}</td><td>${setup ? (settingsOf(setup).webhooks ?? []).length : ''}</td>
<td>${h.requests}</td><td>${percent(h.successRate)}</td><td>${ms(h.p50Ms)}</td><td>${ms(h.p99Ms)}</td>
<td>${h.circuits.map((c) => html`<div>#${c.urlIndex} ${c.urlHost ?? ''}: ${c.state}</div>`)}</td><td>${h.lastAttemptAt ?? ''}</td>
<td class="actions">${canWrite && setup ? html`<a href="${pathOf(d.id)}/edit" id="edit-${d.id}">Edit</a><a href="${pathOf(d.id)}/delete" id="delete-${d.id}">Delete</a>` : ''}</td></tr>`;
  });
  return layout(
    'Destinations',
    html`${canWrite ? html`<p><a href="/destinations/new" id="new-destination">New destination</a></p>` : ''}
<table><thead><tr><th>Destination</th><th>Name</th><th>Enabled</th><th>Sources</th><th>URLs</th><th>Requests</th><th>Success</th><th>p50</th><th>p99</th><th>Circuits</th><th>Last attempt</th><th></th></tr></thead>
<tbody>${rows}</tbody></table><p>Health covers each destination's most recent requests held by the console.</p>`,
    { sources },
  );
}

/** A destination's setup at the top of its page (secrets as the API masks them), with the admin's buttons. */
export function destinationSetup(view: ResourceView, canWrite: boolean): SafeHtml {
  const { resource } = view;
  const id = String(resource.id);
  const settings = settingsOf(resource);
  const urls = (settings.webhooks ?? []).map(
    (w) =>
      html`<li class="webhook">${w.url}${Object.entries(w.headers ?? {}).map(([name, value]) => html`<div class="hint">${name}: ${value}</div>`)}</li>`,
  );
  return html`<h2>Setup</h2><dl><dt>Name (integrations key)</dt><dd>${resource.name ?? resource.type}</dd>
<dt>Enabled</dt><dd id="destination-enabled">${resource.enabled === true ? 'yes' : 'no'}</dd>
<dt>Sources</dt><dd>${sourcesOf(resource).join(', ') || 'none'}</dd>
<dt>URLs, tried in order</dt><dd><ol>${urls}</ol></dd>
<dt>Shared secret</dt><dd>${settings.sharedSecret ?? 'none: requests are not signed'}</dd></dl>
${
  canWrite
    ? html`<p class="actions"><a href="${pathOf(id)}/edit" id="edit-destination">Edit</a>
<form method="post" action="${pathOf(id)}/test" class="inline"><button id="send-test-event">Send a test event</button></form>
<a href="${pathOf(id)}/delete" id="delete-destination">Delete</a></p>`
    : ''
}`;
}

/** Where the form posts and what it is titled: a new destination, or a change to one. */
export type FormMode = { create: true } | { create: false; id: string };

/** What the destination form offers besides its values. */
export interface FormContext {
  /** The sources it can connect: one check box each. */
  choices: Source[];
  /** The stored shared secret as the API masks it: shown as a hint, never as the field's value. */
  storedSecretMask?: string;
  /** Why the last post was refused, with each problem. */
  refused?: { message: string; problems: string[] };
}

/** The destination form, filled with `form`. */
export function destinationFormPage(
  mode: FormMode,
  form: DestinationForm,
  { choices, storedSecretMask, refused }: FormContext,
  sources: Source[],
): SafeHtml {
  const input = (name: string, value: string, attributes: SafeHtml = html``) =>
    html`<input id="${controlId(name)}" name="${name}" value="${value}" ${attributes}>`;
  const checkbox = (name: string, checked: boolean) =>
    html`<input type="checkbox" id="${controlId(name)}" name="${name}" value="on" ${checked ? html`checked` : ''}>`;
  const sourceBoxes = choices.map(
    (s) =>
      html`${checkbox(field.source(s.id), form.sources.includes(s.id))}<label for="${controlId(field.source(s.id))}">${s.name} (${s.id})</label>`,
  );
  const urlRows = form.urls.map(
    (row, r) => html`<fieldset class="webhook-row"><legend>URL ${r + 1}</legend>
<p><label for="${controlId(field.url(r))}">URL ${r + 1}</label> ${input(field.url(r), row.url, html`type="url" size="60" placeholder="https://hooks.example.com/segment"`)}</p>
${row.headers.map(
  (
    header,
    h,
  ) => html`<p><label for="${controlId(field.headerName(r, h))}">Header ${h + 1} name</label> ${input(field.headerName(r, h), header.name, html`size="20"`)}
<label for="${controlId(field.headerValue(r, h))}">value</label> ${input(field.headerValue(r, h), header.value, html`size="40" autocomplete="off"`)}</p>`,
)}</fieldset>`,
  );
  const action = mode.create ? '/destinations' : `${pathOf(mode.id)}/edit`;
  return layout(
    mode.create ? 'New destination' : `Edit destination ${mode.id}`,
    html`${refused ? refusal(refused.message, refused.problems) : ''}
<form method="post" action="${action}" id="destination-form">
${form.revision ? html`<input type="hidden" name="${field.revision}" value="${form.revision}">` : ''}
${mode.create ? html`<p><label for="${controlId(field.id)}">Id</label> ${input(field.id, form.id, html`required`)} <span class="hint">names the destination in URLs; cannot change later</span></p>` : ''}
<p><label for="${controlId(field.name)}">Name</label> ${input(field.name, form.name, html`placeholder="Webhooks"`)} <span class="hint">the key that turns it on or off in a call's integrations object; "Webhooks" when empty</span></p>
<fieldset id="sources"><legend>Sources to connect</legend>${sourceBoxes.length > 0 ? sourceBoxes : html`<p>No sources yet: <a href="/sources/new">create one</a> first.</p>`}</fieldset>
<p class="hint">Up to five URLs, tried in order until one answers 2xx; each with up to three static headers. Header values are secret: shown masked, and kept when left as shown. Empty rows are ignored.</p>
${urlRows}
<fieldset><legend>Shared secret</legend><p><label for="${controlId(field.sharedSecret)}">Shared secret</label>
<input type="password" id="${controlId(field.sharedSecret)}" name="${field.sharedSecret}" autocomplete="new-password" size="40">
${storedSecretMask ? html`<span class="hint" id="stored-secret">stored: ${storedSecretMask}; leave empty to keep it</span>` : html`<span class="hint">signs each request (X-Signature); empty: unsigned</span>`}</p>
${storedSecretMask ? html`<p>${checkbox(field.clearSharedSecret, form.clearSharedSecret)}<label for="${controlId(field.clearSharedSecret)}">Remove the stored secret (send unsigned requests)</label></p>` : ''}</fieldset>
<p>${checkbox(field.enabled, form.enabled)}<label for="${controlId(field.enabled)}">Enabled: forward the connected sources' calls</label></p>
<button id="save-destination">${mode.create ? 'Create destination' : 'Save changes'}</button> <a href="${mode.create ? '/destinations' : pathOf(mode.id)}">Cancel</a></form>`,
    { sources },
  );
}

/** What a test event met at each URL tried: status, duration and the start of the body, as text. */
export function testResultsPage(id: string, report: DestinationTestReport, sources: Source[]): SafeHtml {
  const rows = report.results.map(
    (
      r,
    ) => html`<tr class="test-result" data-status="${r.status ?? ''}"><td>${r.url}</td><td class="status">${r.status ?? ''}</td>
<td>${ms(r.durationMs)}</td><td>${r.error ?? ''}</td><td>${r.bodyStart === undefined ? '' : html`<pre class="response-body">${r.bodyStart}</pre>`}</td></tr>`,
  );
  return layout(
    `Test event to ${id}`,
    html`${
      rows.length > 0
        ? html`<table id="test-results"><thead><tr><th>URL</th><th>Status</th><th>Duration</th><th>Error</th><th>Response body (start)</th></tr></thead><tbody>${rows}</tbody></table>`
        : html`<p class="error">No URL was tried.</p>`
    }
<p><a href="${pathOf(id)}">Back to ${id}</a></p>`,
    { sources },
  );
}
