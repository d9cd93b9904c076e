// @ts-check
// A small Markdown reader for the rules texts the engine writes
// (Preset.Explain): headings, paragraphs, lists, tables, code blocks, inline
// code, bold and italics. It builds elements, never HTML strings, so no text
// can inject markup.

import { h } from './dom.js';

/**
 * render turns Markdown into a fragment of elements.
 * @param {string} md
 * @returns {DocumentFragment}
 */
export function render(md) {
  const out = document.createDocumentFragment();
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const head = line.match(/^(#{1,6})\s+(.*)$/);
    if (head) {
      out.append(h(`h${Math.min(6, head[1].length)}`, {}, ...inline(head[2])));
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith('```')) code.push(lines[i++]);
      i++;
      out.append(h('pre', {}, h('code', {}, code.join('\n'))));
      continue;
    }
    if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++]);
      out.append(table(rows));
      continue;
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const list = h(ordered ? 'ol' : 'ul');
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i])) {
        let text = lines[i++].replace(/^\s*([-*]|\d+\.)\s+/, '');
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) text += ' ' + lines[i++].trim();
        list.append(h('li', {}, ...inline(text)));
      }
      out.append(list);
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#|```|\||\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
    if (!para.length) para.push(lines[i++]);
    out.append(h('p', {}, ...inline(para.join(' '))));
  }
  return out;
}

/** @param {string[]} rows */
function table(rows) {
  const cells = (/** @type {string} */ r) => r.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const head = cells(rows[0]);
  const body = rows.slice(1).filter((r) => !/^\|[\s:|-]+\|?$/.test(r));
  return h('table', {},
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, ...inline(c))))),
    h('tbody', {}, ...body.map((r) => h('tr', {}, ...cells(r).map((c) => h('td', {}, ...inline(c)))))));
}

/**
 * inline reads code spans, bold and italics.
 * @param {string} text
 * @returns {(Node|string)[]}
 */
function inline(text) {
  /** @type {(Node|string)[]} */
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(h('code', {}, m[1]));
    else if (m[2] !== undefined) out.push(h('strong', {}, m[2]));
    else out.push(h('em', {}, m[3]));
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
