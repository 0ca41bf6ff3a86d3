import { maskSecret } from '@switchyard/workspace';
import type { RawInput } from '../api/query-params';
import type { ResourceView } from '../workspace/workspace-admin';
import { html, SafeHtml } from './html';
import { layout, refusal, Source } from './pages';
import { setupSnippets } from './setup-snippets';

type Plain = Record<string, unknown>;

/** Where the copy buttons' script is served. */
export const COPY_BUTTONS_SCRIPT_PATH = '/assets/copy-buttons.js';

/** What the new-source form shows and posts. */
export interface SourceForm {
  id: string;
  name: string;
  /** As typed: origins separated by spaces, commas or lines. */
  allowedOrigins: string;
}

export function readSourceForm(body: RawInput): SourceForm {
  const value = (name: string) => {
    const v = body?.[name];
    return typeof v === 'string' ? v : '';
  };
  return { id: value('id').trim(), name: value('name').trim(), allowedOrigins: value('allowedOrigins') };
}

/** The management API's body of a new source; no origins typed means any origin. */
export function sourceBody(form: SourceForm): Plain {
  const origins = form.allowedOrigins.split(/[\s,]+/).filter((o) => o !== '');
  return { id: form.id, name: form.name, ...(origins.length > 0 ? { allowedOrigins: origins } : {}) };
}

const text = (resource: Plain, name: string) =>
  typeof resource[name] === 'string' ? (resource[name] as string) : undefined;

/** The write key as lists show it: masked even for admins, who see it in full only once, when it is made. */
const shownKey = (key: string | undefined) => (key === undefined ? '' : maskSecret(key));

export function sourcesPage(views: ResourceView[], canWrite: boolean, sources: Source[]): SafeHtml {
  const rows = views.map(({ revision, resource }) => {
    const id = String(resource.id);
    const path = `/sources/${encodeURIComponent(id)}`;
    const previous = text(resource, 'previousWriteKey');
    const origins = Array.isArray(resource.allowedOrigins) ? resource.allowedOrigins.map(String) : [];
    const keyForm = previous
      ? html`<form method="post" action="${path}/retire" class="inline"><input type="hidden" name="revision" value="${revision}">
<button id="retire-${id}">Retire previous key</button></form>`
      : html`<form method="post" action="${path}/rotate" class="inline"><input type="hidden" name="revision" value="${revision}">
<button id="rotate-${id}">Rotate write key</button></form>`;
    return html`<tr class="source" data-id="${id}"><td>${id}</td><td>${text(resource, 'name')}</td>
<td><code>${shownKey(text(resource, 'writeKey'))}</code>${previous ? html`<div class="rotating">previous key <code>${shownKey(previous)}</code> still accepted</div>` : ''}</td>
<td>${origins.length > 0 ? origins.join(' ') : 'any'}</td>
<td class="actions"><a href="${path}/debugger">Debugger</a>${canWrite ? html`${keyForm}<a href="${path}/delete" id="delete-${id}">Delete</a>` : ''}</td></tr>`;
  });
  return layout(
    'Sources',
    html`${canWrite ? html`<p><a href="/sources/new" id="new-source">New source</a></p>` : ''}
<table><thead><tr><th>Source</th><th>Name</th><th>Write key</th><th>Allowed origins</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>`,
    { sources },
  );
}

export function newSourcePage(
  form: SourceForm,
  sources: Source[],
  refused?: { message: string; problems: string[] },
): SafeHtml {
  return layout(
    'New source',
    html`${refused ? refusal(refused.message, refused.problems) : ''}
<form method="post" action="/sources" id="source-form">
<p><label for="source-id">Id</label> <input id="source-id" name="id" required value="${form.id}">
<span class="hint">letters, digits, dot, dash, underscore; it names the source in URLs and destinations</span></p>
<p><label for="source-name">Name</label> <input id="source-name" name="name" required value="${form.name}"></p>
<p><label for="source-allowed-origins">Allowed origins</label><br>
<textarea id="source-allowed-origins" name="allowedOrigins" rows="3" cols="60" placeholder="https://shop.example.com">${form.allowedOrigins}</textarea>
<br><span class="hint">Browser pages that may send this source's calls, one per line (https://*.example.com for subdomains). Empty: any origin.</span></p>
<button id="create-source">Create source</button></form>`,
    { sources },
  );
}

/**
 * The one page that shows a write key in full: the answer to creating a source or rotating its
 * key, with the setup of each SDK. Nothing shows the key again.
 */
export function writeKeyPage(
  view: ResourceView,
  how: 'created' | 'rotated',
  ingestUrl: string,
  sources: Source[],
): SafeHtml {
  const id = String(view.resource.id);
  const writeKey = text(view.resource, 'writeKey') ?? '';
  const path = `/sources/${encodeURIComponent(id)}`;
  const snippets = setupSnippets(ingestUrl, writeKey).map(
    (
      s,
    ) => html`<section class="snippet"><h3>${s.title} <button type="button" class="copy" data-copy="snippet-${s.id}" hidden>Copy</button></h3>
<pre id="snippet-${s.id}"><code>${s.code}</code></pre></section>`,
  );
  return layout(
    how === 'created' ? `Source ${id} created` : `New write key for ${id}`,
    html`<p class="notice">${how === 'created' ? 'The source is ready.' : 'The new key works now; the previous one keeps working until you retire it.'}
Copy the write key now: <strong>it is shown only on this page</strong>; afterwards lists show its last characters only.</p>
<p>Write key: <code class="write-key" id="write-key">${writeKey}</code> <button type="button" class="copy" data-copy="write-key" hidden>Copy</button></p>
${
  how === 'rotated'
    ? html`<form method="post" action="${path}/retire" id="retire-form"><input type="hidden" name="revision" value="${view.revision}">
<button id="retire-previous-key">Retire previous key</button> <span class="hint">once every sender uses the new key: the previous one then gets 401</span></form>`
    : ''
}
<h2>Send calls</h2><p>Every example points at ingest at <code id="ingest-url">${ingestUrl}</code>, this host on ingest's default port: change it where ingest is reached at another address.</p>
${snippets}<p><a href="/sources">All sources</a> · <a href="${path}/debugger">Watch its calls arrive</a></p>`,
    { sources, script: COPY_BUTTONS_SCRIPT_PATH },
  );
}
