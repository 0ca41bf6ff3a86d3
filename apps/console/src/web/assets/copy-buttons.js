// The copy buttons of the write key page (served at /assets/copy-buttons.js). Each button names the
// element whose text it copies (data-copy); the buttons are hidden until this script shows them, so
// a browser without scripts shows plain text to select instead of buttons that do nothing.
'use strict';
(() => {
  for (const button of document.querySelectorAll('button.copy[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(target.textContent);
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Copy failed: select the text';
      }
    });
  }
})();
