import { escapeHtml, html } from './html';

describe('html', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='1' \``;
    const markup = html`<a title="${hostile}">${hostile}</a>`.markup;
    expect(markup).toBe(`<a title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</a>`);
    expect(markup).not.toMatch(/<script|"x"|' on/);
  });

  it('nests built markup as is, renders arrays and skips null, undefined and false', () => {
    const rows = ['a<b', 'c'].map((v) => html`<li>${v}</li>`);
    expect(html`<ul>${rows}${null}${undefined}${false}${0}</ul>`.markup).toBe(
      '<ul><li>a&lt;b</li><li>c</li>0</ul>',
    );
  });
});
