import type { WorkspaceAuditRecord } from '@switchyard/contracts';
import { html, SafeHtml } from './html';
import { layout, Source } from './pages';

type Plain = Record<string, unknown>;

/** The filter as the page's form shows it: the query's text, as typed. */
export interface AuditFilterShown {
  kind?: string;
  id?: string;
  from?: string;
  to?: string;
}

/**
 * The fields a change touched, as paths (`settings.webhooks[0].url`): added, removed or changed
 * leaves, in the order the records hold them. Both sides are masked records, so no secret shows.
 */
export function changedFields(before: Plain | undefined, after: Plain | undefined): string[] {
  const was = leaves(before ?? {});
  const is = leaves(after ?? {});
  const paths = [...new Set([...was.keys(), ...is.keys()])];
  return paths.filter((path) => was.get(path) !== is.get(path));
}

function leaves(value: unknown, path = '', found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) value.forEach((item, i) => leaves(item, `${path}[${i}]`, found));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) leaves(item, path ? `${path}.${key}` : key, found);
  else found.set(path, JSON.stringify(value));
  return found;
}

/** A destination has a page of its own while it exists; a source shows in the sources' list. */
const resourcePath = (r: WorkspaceAuditRecord) =>
  r.kind === 'destination' && r.action !== 'delete'
    ? `/destinations/${encodeURIComponent(r.id)}`
    : `/${r.kind}s`;

export function auditPage(
  records: WorkspaceAuditRecord[],
  filter: AuditFilterShown,
  sources: Source[],
): SafeHtml {
  const kindOption = (value: string, label: string) =>
    html`<option value="${value}" ${(filter.kind ?? '') === value ? html`selected` : ''}>${label}</option>`;
  const rows = records.map((r) => {
    const changed = r.action === 'update' ? changedFields(r.before, r.after) : [];
    const json = (label: string, value: Plain | undefined) =>
      value
        ? html`<details><summary>${label}</summary><pre>${JSON.stringify(value, null, 2)}</pre></details>`
        : '';
    return html`<tr class="change" data-kind="${r.kind}" data-id="${r.id}" data-action="${r.action}"><td>${r.at}</td><td>${r.actor}</td><td>${r.action}</td>
<td>${r.kind} <a href="${resourcePath(r)}">${r.id}</a></td><td>${r.revision}</td>
<td>${changed.length > 0 ? html`<ul class="changed">${changed.map((path) => html`<li>${path}</li>`)}</ul>` : ''}${json('Before', r.before)}${json('After', r.after)}</td></tr>`;
  });
  return layout(
    'Audit',
    html`<form method="get" action="/audit" id="audit-filter">
<label for="audit-kind">Resource</label> <select id="audit-kind" name="kind">${kindOption('', 'any')}${kindOption('source', 'source')}${kindOption('destination', 'destination')}</select>
<label for="audit-id">Id</label> <input id="audit-id" name="id" value="${filter.id ?? ''}" size="16">
<label for="audit-from">From</label> <input id="audit-from" name="from" value="${filter.from ?? ''}" placeholder="2026-01-31T00:00:00Z">
<label for="audit-to">To</label> <input id="audit-to" name="to" value="${filter.to ?? ''}">
<button id="audit-apply">Filter</button></form>
${
  records.length > 0
    ? html`<table><thead><tr><th>At</th><th>By</th><th>Action</th><th>Resource</th><th>Revision</th><th>Change (secrets masked)</th></tr></thead>
<tbody>${rows}</tbody></table>`
    : html`<p>No change matches.</p>`
}`,
    { sources },
  );
}
