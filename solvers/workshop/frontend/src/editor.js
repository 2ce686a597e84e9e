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
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorState.tabSize.of(2), EditorView.lineWrapping,
        EditorView.updateListener.of(u => { if (u.docChanged) onChange(u.state.doc.toString()); }),
  ];
  const view = new EditorView({parent, state: EditorState.create({doc, extensions})});
  view.trailkitExtensions = extensions;
  return view;
}

// Show `problems` ({line, column, message, level}, 1-based) as lint marks.
export function showProblems(view, problems) {
  const doc = view.state.doc;
  const marks = problems.map(p => {
    const line = doc.line(Math.max(1, Math.min(doc.lines, p.line || 1)));
    const from = Math.min(line.to, line.from + Math.max(0, (p.column || 1) - 1));
    const word = /^[^\s,\]\}:#]*/.exec(doc.sliceString(from, line.to))[0].length;
    return {from, to: Math.min(line.to, from + Math.max(1, word)),
            severity: p.level === "warning" ? "warning" : "error", message: p.message};
  });
  view.dispatch(setDiagnostics(view.state, marks));
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
