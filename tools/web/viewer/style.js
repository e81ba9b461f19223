// The viewer page's style sheet (kept in the bundle so the page is one file).
export const STYLE = `
html, body { margin: 0; height: 100%; overflow: hidden; background: #1b1f24; color: #dfe3e8;
  font: 13px/1.35 system-ui, sans-serif; }
#view { position: absolute; inset: 0 340px 0 0; }
#view canvas { display: block; }
#toolbar { position: absolute; top: 8px; left: 8px; display: flex; gap: 4px; flex-wrap: wrap; max-width: calc(100% - 360px); }
#toolbar button { background: #2b323a; color: #dfe3e8; border: 1px solid #46515c; border-radius: 4px; padding: 3px 8px; cursor: pointer; }
#toolbar button.on { background: #3d6fa8; border-color: #5b8fcc; }
#panel { position: absolute; top: 0; right: 0; bottom: 0; width: 340px; box-sizing: border-box; padding: 10px 12px;
  background: #232830; border-left: 1px solid #39414a; overflow: auto; }
#panel h2 { font-size: 14px; margin: 0 0 4px; word-break: break-all; }
#panel h3 { font-size: 13px; margin: 12px 0 6px; }
#panel h4 { margin: 10px 0 4px; }
#summary { color: #9aa5b1; margin-bottom: 8px; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; }
dt { color: #9aa5b1; }
dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
td, th { padding: 1px 4px; text-align: left; border-bottom: 1px solid #333b44; }
li.invariant { color: #ff6b6b; }
li.statistic, li.observed { color: #f0a030; }
#legend { position: absolute; left: 8px; bottom: 8px; background: rgba(35, 40, 48, 0.92); padding: 8px 10px;
  border-radius: 6px; max-height: 40%; overflow: auto; max-width: 300px; font-size: 12px; }
#legend h3 { margin: 0 0 4px; font-size: 12px; }
#legend .keys { color: #9aa5b1; margin: 6px 0 0; }
.sw { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border-radius: 2px; vertical-align: -1px; }
#help { position: absolute; top: 44px; left: 8px; background: rgba(35, 40, 48, 0.96); padding: 10px 14px; border-radius: 6px; }
#help h3 { margin: 0 0 6px; }
kbd { background: #39414a; border-radius: 3px; padding: 0 4px; }
`;
