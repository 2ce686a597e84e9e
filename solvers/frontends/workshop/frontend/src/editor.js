// The workshop's YAML editor: CodeMirror 6 with line numbers, YAML highlighting, undo
// history and lint marks. Built once into ../static/editor.js by `npm run build`
// (build.sh); the page (../static/app.js) uses only the small API exported here.
import {EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
        drawSelection} from "@codemirror/view";
import {EditorState} from "@codemirror/state";
import {defaultKeymap, history, historyKeymap, undo, redo, indentWithTab} from "@codemirror/commands";
import {syntaxHighlighting, defaultHighlightStyle, indentOnInput, bracketMatching} from "@codemirror/language";
import {lintGutter, setDiagnostics} from "@codemirror/lint";
import {yaml} from "@codemirror/lang-yaml";

// Make an editor in `parent` holding `doc`; `onChange(text)` runs after every edit;
// `nonce` is the page's style nonce (its Content-Security-Policy allows no other inline style).
export function create(parent, doc, onChange, nonce) {
  const extensions = [
        EditorView.cspNonce.of(nonce || ""),
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(),
        history(), indentOnInput(), bracketMatching(), lintGutter(),
        syntaxHighlighting(defaultHighlightStyle, {fallback: true}), yaml(),
        keymap.of([{key: "Enter", run: yamlNewline}, ...defaultKeymap, ...historyKeymap,
                   indentWithTab]),
        EditorState.tabSize.of(2), EditorView.lineWrapping,
        EditorView.updateListener.of(u => { if (u.docChanged) onChange(u.state.doc.toString()); }),
  ];
  const view = new EditorView({parent, state: EditorState.create({doc, extensions})});
  view.trailkitExtensions = extensions;
  return view;
}

// Enter at the end of a line of a YAML block, indented as YAML wants the next line:
// after `key:` one step in (so `edges:` Enter `- A B red` is the key's list), after a
// `- item` the next item's place, else the line's own indentation. A `key:` left at the
// indentation of the list items just above it (typing `layout:` after the last edge)
// could only be an error there: it moves out to the indentation of the key that owns
// the list. Anywhere else (mid-line, in a [flow] list, a selection) Enter is as usual.
function yamlNewline(view) {
  const state = view.state, sel = state.selection.main;
  if (state.selection.ranges.length > 1 || !sel.empty) return false;
  const line = state.doc.lineAt(sel.head);
  if (line.text.slice(sel.head - line.from).trim() !== "") return false;
  const code = withoutComment(line.text).trimEnd();
  if (/[[{]/.test(code.replace(/'[^']*'|"[^"]*"/g, "")) && !/[\]}]\s*$/.test(code)) return false;
  const indent = indentOf(line.text);
  let lineIndent = indent;
  const changes = [];
  if (indent > 0 && /^\s*[^\s#-][^:]*:$/.test(code)) {
    const above = previousCode(state.doc, line.number);
    const owner = above && /^\s*- /.test(above.text) && indentOf(above.text) === indent
      ? ownerKey(state.doc, above.number, indent) : null;
    if (owner !== null) {
      lineIndent = owner;
      changes.push({from: line.from, to: line.from + indent, insert: " ".repeat(owner)});
    }
  }
  const item = /^(\s*)- +/.exec(code);
  const content = item ? item[0].length + (lineIndent - indent) : lineIndent;
  let next = lineIndent;
  if (/:$|[|>][-+]?\d*$/.test(code) && code.trim() !== "") next = content + 2;
  else if (item) next = lineIndent;
  changes.push({from: sel.head, to: line.to, insert: "\n" + " ".repeat(next)});
  const set = state.changes(changes);
  view.dispatch({changes: set, selection: {anchor: set.mapPos(line.to, 1)},
                 scrollIntoView: true, userEvent: "input"});
  return true;
}

function indentOf(text) { return /^ */.exec(text)[0].length; }
function withoutComment(text) { return text.replace(/(^|\s)#.*$/, ""); }

// The nearest line above `number` with code on it (not blank, not only a comment).
function previousCode(doc, number) {
  for (let n = number - 1; n >= 1; n--) {
    const l = doc.line(n);
    if (withoutComment(l.text).trim() !== "") return l;
  }
  return null;
}

// The indentation of the `key:` that owns the list whose item is on line `number`
// (indented `indent`), or null when there is none further out.
function ownerKey(doc, number, indent) {
  for (let n = number - 1; n >= 1; n--) {
    const text = withoutComment(doc.line(n).text).trimEnd();
    if (text.trim() === "") continue;
    const at = indentOf(text);
    if (at < indent) return /:$/.test(text) ? at : null;
  }
  return null;
}

// Where a problem's mark goes: on the name its message quotes (`token_column`, from
// the server) when it was found in the line, else from its column to the word's end.
function problemRange(doc, p) {
  const line = doc.line(Math.max(1, Math.min(doc.lines, p.line || 1)));
  const column = p.token_column || p.column || 1;
  const from = Math.min(line.to, line.from + Math.max(0, column - 1));
  const word = p.token_length ||
    /^[^\s,\]\}:#]*/.exec(doc.sliceString(from, line.to))[0].length;
  return {from, to: Math.min(line.to, from + Math.max(1, word))};
}

// Show `problems` ({line, column, token_column, token_length, message, level}, 1-based)
// as lint marks.
export function showProblems(view, problems) {
  const doc = view.state.doc;
  const marks = problems.filter(p => p.line).map(p => ({
    ...problemRange(doc, p),
    severity: p.level === "warning" ? "warning" : "error", message: p.message}));
  view.dispatch(setDiagnostics(view.state, marks));
}

// Select the name a problem's message quotes (or put the cursor at its column) and
// focus the editor.
export function goToProblem(view, p) {
  const range = problemRange(view.state.doc, p);
  const select = p.token_length ? {anchor: range.from, head: range.to} : {anchor: range.from};
  view.dispatch({selection: select, scrollIntoView: true});
  view.focus();
}

// Replace the text by `text` as one undoable step, changing only the part that differs.
export function replaceText(view, text) {
  const old = view.state.doc.toString();
  if (old === text) return;
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start++;
  let a = old.length, b = text.length;
  while (a > start && b > start && old[a - 1] === text[b - 1]) { a--; b--; }
  view.dispatch({changes: {from: start, to: a, insert: text.slice(start, b)},
                 userEvent: "input.workshop", scrollIntoView: true});
}

// Put the cursor at a 1-based line and column and focus the editor.
export function goTo(view, line, column) {
  const doc = view.state.doc;
  const l = doc.line(Math.max(1, Math.min(doc.lines, line)));
  const at = Math.min(l.to, l.from + Math.max(0, column - 1));
  view.dispatch({selection: {anchor: at}, scrollIntoView: true});
  view.focus();
}

export function text(view) { return view.state.doc.toString(); }
export function setText(view, doc) {
  // a new file: a fresh state, so undo never crosses files
  view.setState(EditorState.create({doc, extensions: view.trailkitExtensions}));
}
export {undo, redo};
