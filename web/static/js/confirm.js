// @ts-check
// A question to confirm before something that cannot be undone (resign,
// abort): a modal dialog the keyboard reaches and leaves (Tab moves within
// it, Escape cancels), which takes the focus to its safe answer and gives
// it back where it was.

import { h } from './dom.js';

/**
 * confirmAction asks a question in a modal dialog and resolves to whether
 * the person confirmed.
 * @param {{id: string, title: string, text: string, yes: string, no?: string}} q
 *   id: the dialog's id; yes: the confirming button's words
 * @returns {Promise<boolean>}
 */
export function confirmAction(q) {
  const before = document.activeElement;
  const old = document.getElementById(q.id);
  if (old) old.remove();
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ yes) => {
      dialog.close();
      dialog.remove();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
      resolve(yes);
    };
    const no = h('button', { type: 'button', class: 'secondary', 'data-answer': 'no', onclick: () => done(false) }, q.no || 'Cancel');
    const dialog = /** @type {HTMLDialogElement} */ (h('dialog', {
      id: q.id, class: 'confirm', 'aria-labelledby': `${q.id}-title`, 'aria-describedby': `${q.id}-text`,
    },
    h('h2', { id: `${q.id}-title` }, q.title),
    h('p', { id: `${q.id}-text` }, q.text),
    h('div', { class: 'button-row' },
      no,
      h('button', { type: 'button', class: 'danger', 'data-answer': 'yes', onclick: () => done(true) }, q.yes))));
    // Escape closes a modal dialog with a cancel event.
    dialog.addEventListener('cancel', (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}
