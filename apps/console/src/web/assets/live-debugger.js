// The live debugger's updates (served at /assets/live-debugger.js). Every few seconds (the page's
// data-every-ms) while "Live updates" is ticked it fetches the rows the console renders for the page and adds the new calls
// on top: rows already shown stay, with their JSON left open, where reloading the page would close
// it and lose the scroll position. Browsers without scripts reload the page instead (<noscript>).
'use strict';
(() => {
  const table = document.getElementById('calls');
  const live = document.getElementById('live');
  const status = document.getElementById('live-status');
  if (!table || !live || !status) return;
  const limit = Number(table.dataset.limit);
  const everyMs = Number(table.dataset.everyMs);
  const keyOf = (row) => row.dataset.key;

  async function update() {
    const response = await fetch(table.dataset.rows, { cache: 'no-store' });
    if (response.status === 401) {
      live.checked = false;
      status.textContent = 'Your session has ended: reload the page to log in again.';
      return;
    }
    if (!response.ok) throw new Error(`the console answered ${response.status}`);
    // Markup the console rendered and escaped; a template keeps it inert until it is placed.
    const fresh = document.createElement('template');
    fresh.innerHTML = await response.text();
    const shown = new Set(Array.from(table.rows, keyOf));
    const added = Array.from(fresh.content.querySelectorAll('tr.call')).filter(
      (row) => !shown.has(keyOf(row)),
    );
    table.prepend(...added);
    while (table.rows.length > limit) table.deleteRow(-1);
    status.textContent = `Updated ${new Date().toLocaleTimeString()}`;
  }

  // One request at a time: the next is scheduled once the last has finished, however long it took.
  async function loop() {
    if (live.checked) {
      try {
        await update();
      } catch (error) {
        status.textContent = `Not updated (${error.message}); trying again.`;
      }
    }
    setTimeout(loop, everyMs);
  }
  live.addEventListener('change', () => (status.textContent = live.checked ? 'Live' : 'Paused'));
  setTimeout(loop, everyMs);
})();
