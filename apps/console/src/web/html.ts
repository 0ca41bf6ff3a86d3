/** Markup that is already safe: built by `html` or escaped. Anything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

/**
 * The pages' only way to build markup: a tagged template that escapes every interpolated value
 * (text and attribute values alike; attributes are always quoted), except SafeHtml from another
 * `html` call. Arrays render each item; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0];
  values.forEach((value, i) => {
    markup += render(value) + strings[i + 1];
  });
  return new SafeHtml(markup);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}
