// labelrender studio: one page on the public API, signed in with a key kept in
// sessionStorage only. No build step, no dependencies.
"use strict";

const KEY_STORE = "labelrender.studio.key";
const DEBOUNCE_MS = 800; // a pause this long after typing sends the text
const $ = (id) => document.getElementById(id);

// --- the API ------------------------------------------------------------------

const rate = { limit: null, remaining: null, resetAt: null, retryUntil: 0 };

class ApiError extends Error {
  constructor(status, body, retryAfter) {
    const detail = (body && body.error) || {};
    super(detail.message || `HTTP ${status}`);
    this.status = status;
    this.kind = detail.kind || "";
    this.retryAfter = retryAfter;
  }
}

// `body` is sent as JSON; a File or Blob as itself, under its own type.
async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY_STORE) || ""}` };
  let payload;
  if (body instanceof Blob) {
    headers["Content-Type"] = body.type || "application/octet-stream";
    headers.Accept = "application/json";
    payload = body;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const response = await fetch(path, { method, headers, body: payload });
  noteRate(response);
  const answer = await response.json().catch(() => null);
  if (response.status === 429) {
    const wait = Number(response.headers.get("Retry-After") || "1");
    rate.retryUntil = Date.now() + wait * 1000;
    showRate();
    throw new ApiError(429, answer, wait);
  }
  if (!response.ok) throw new ApiError(response.status, answer, null);
  return answer;
}

function noteRate(response) {
  const limit = response.headers.get("X-RateLimit-Limit");
  if (limit === null) return;
  rate.limit = Number(limit);
  rate.remaining = Number(response.headers.get("X-RateLimit-Remaining"));
  rate.resetAt = Number(response.headers.get("X-RateLimit-Reset"));
  showRate();
}

let rateTimer = null;
function showRate() {
  const node = $("rate-state");
  const waitS = Math.ceil((rate.retryUntil - Date.now()) / 1000);
  clearTimeout(rateTimer);
  if (waitS > 0) {
    node.textContent = `Rate limited: ${rate.limit ?? "?"} requests a minute used up. ` +
      `Retry-After ${waitS} s`;
    node.classList.add("limited");
    rateTimer = setTimeout(showRate, 1000);
    return;
  }
  node.classList.remove("limited");
  node.textContent = rate.limit === null ? "Rate: –"
    : `Rate: ${rate.remaining} of ${rate.limit} requests left this minute`;
}

const rateLimited = () => Date.now() < rate.retryUntil;

// --- sign-in and usage -------------------------------------------------------

async function signIn(event) {
  event.preventDefault();
  const key = $("api-key").value.trim();
  $("sign-in-error").textContent = "";
  if (!key) {
    $("sign-in-error").textContent = "Enter an API key.";
    return;
  }
  sessionStorage.setItem(KEY_STORE, key);
  try {
    await refreshUsage();
  } catch (error) {
    sessionStorage.removeItem(KEY_STORE);
    $("sign-in-error").textContent = error.status === 401
      ? "That key is not valid or has been revoked." : `Could not sign in: ${error.message}`;
    return;
  }
  $("api-key").value = "";
  enterApp();
}

function enterApp() {
  $("sign-in").hidden = true;
  $("app").hidden = false;
  $("usage").hidden = false;
  $("sign-out").hidden = false;
  showTab("editor");
  $("zpl").focus();
}

function signOut() {
  sessionStorage.removeItem(KEY_STORE);
  location.reload();
}

// GET /v1/usage only looks at the rate limit, so refreshing it costs nothing.
async function refreshUsage() {
  const usage = await api("GET", "/v1/usage");
  for (const unit of ["labels", "syntheses"]) {
    const figures = usage[unit] || { used: 0, included: 0 };
    const meter = $(`usage-${unit}`);
    meter.max = Math.max(figures.included, 1);
    meter.value = Math.min(figures.used, meter.max);
    $(`usage-${unit}-text`).textContent = `${figures.used} of ${figures.included}`;
  }
  return usage;
}

const quietUsage = () => refreshUsage().catch(() => {});

// --- tabs --------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    const own = tab.id === `tab-${name}`;
    if (own) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
    $(tab.getAttribute("aria-controls")).hidden = !own;
  }
}

// --- previews with field boxes -------------------------------------------------

function showPreview(container, answer, labelFor, confidenceFor = null) {
  container.replaceChildren();
  const image = document.createElement("img");
  image.alt = "Rendered label";
  image.src = answer.url;
  container.append(image);
  image.addEventListener("load", () => {
    for (const field of answer.fields || []) {
      const box = boxNode(field, image.naturalWidth, image.naturalHeight, labelFor);
      const confidence = confidenceFor ? confidenceFor(field) : null;
      if (confidence !== null && confidence !== undefined) markConfidence(box, confidence);
      container.append(box);
    }
  }, { once: true });
}

// A field box shows how sure synthesis is of the field (0-1); below the review
// threshold the box is dashed and its figure says to check the name.
const REVIEW_BELOW = 0.7;

function markConfidence(box, confidence) {
  const figure = document.createElement("b");
  figure.className = "conf";
  figure.textContent = confidence.toFixed(2);
  const unsure = confidence < REVIEW_BELOW;
  box.classList.toggle("unsure", unsure);
  box.dataset.confidence = confidence.toFixed(3);
  figure.title = unsure ? "Confidence below 0.7: check this field's name"
    : "Confidence of this field's kind and name";
  box.append(figure);
}

function boxNode(field, width, height, labelFor) {
  const box = document.createElement("div");
  box.className = "box";
  box.style.left = `${(100 * field.x) / width}%`;
  box.style.top = `${(100 * field.y) / height}%`;
  box.style.width = `${(100 * field.width) / width}%`;
  box.style.height = `${(100 * field.height) / height}%`;
  box.dataset.fn = field.fn === null ? "" : String(field.fn);
  box.dataset.offset = String(field.offset);
  const text = labelFor ? labelFor(field) : null;
  if (text) {
    const tag = document.createElement("span");
    tag.textContent = text;
    box.append(tag);
  }
  return box;
}

// --- the editor -----------------------------------------------------------------

const editor = { timer: null, lastSent: null, inFlight: false, again: false };

function renderRequest() {
  const dpi = Number($("opt-dpi").value);
  const request = {
    zpl: $("zpl").value,
    source_dpi: dpi,
    target_dpi: dpi,
    width_dots: Math.max(1, Math.round(Number($("opt-width").value || 4) * dpi)),
    height_dots: Math.max(1, Math.round(Number($("opt-height").value || 6) * dpi)),
    rotation: Number($("opt-rotation").value),
    threshold: $("opt-threshold").checked,
    fields: $("opt-boxes").checked,
  };
  if ($("opt-font").value) request.font_profile = $("opt-font").value;
  return request;
}

function scheduleRender() {
  clearTimeout(editor.timer);
  editor.timer = setTimeout(renderEditor, DEBOUNCE_MS);
}

async function renderEditor() {
  const request = renderRequest();
  const signature = JSON.stringify(request);
  if (!request.zpl.trim() || signature === editor.lastSent) return;
  if (editor.inFlight) {
    editor.again = true; // one more render once this one answers, with the latest text
    return;
  }
  if (rateLimited()) {
    clearTimeout(editor.timer);
    editor.timer = setTimeout(renderEditor, rate.retryUntil - Date.now() + 50);
    return;
  }
  editor.inFlight = true;
  editor.lastSent = signature;
  const status = $("editor-status");
  status.classList.remove("bad");
  status.textContent = "Rendering…";
  try {
    const answer = await api("POST", "/v1/labels", request);
    showPreview($("editor-preview"), answer, (field) =>
      field.fn === null ? field.command : `${field.command} ^FN${field.fn}`);
    showWarnings(answer.warnings);
    status.textContent = `Rendered${answer.cached ? " (cached)" : ""} · ` +
      `${answer.content_hash.slice(0, 12)}`;
    quietUsage();
  } catch (error) {
    status.classList.add("bad");
    if (!(error.status < 500) || error.status === 429) {
      editor.lastSent = null; // not an answer about this text: it may be sent again
    }
    if (error.status === 401) {
      status.textContent = "The key is no longer valid (401): sign out and sign in again.";
    } else if (error.status === 429) {
      status.textContent = `Rate limited (429): the preview renders again after ` +
        `Retry-After ${error.retryAfter} s.`;
      editor.timer = setTimeout(renderEditor, error.retryAfter * 1000 + 50);
    } else {
      status.textContent = `Not rendered: ${error.message}`;
      // "^GB at byte 11: ..." names the command at fault: listed like a warning.
      const at = /^(\S+) at byte (\d+): ([\s\S]*)$/.exec(error.message);
      showWarnings(at ? [`offset ${at[2]}: ${at[1]}: ${at[3]}`] : []);
    }
  } finally {
    editor.inFlight = false;
    if (editor.again) {
      editor.again = false;
      scheduleRender();
    }
  }
}

// An image or PDF dropped on the editor: POST /v1/graphics, and its ^GF field at
// the cursor, after an ^FO0,0 unless the text there already ends with an ^FO.
const FIELD_ORIGIN_BEFORE = /\^FO\d*,?\d*(,\d)?\s*$/i;

function dragsFiles(event) {
  return event.dataTransfer && [...event.dataTransfer.types].includes("Files");
}

async function dropGraphic(event) {
  if (!dragsFiles(event)) return;
  event.preventDefault();
  const file = event.dataTransfer.files[0];
  const area = $("zpl");
  const status = $("editor-status");
  const at = area.selectionStart;
  status.classList.remove("bad");
  status.textContent = `Converting ${file.name}…`;
  try {
    const answer = await api("POST", "/v1/graphics?output=field&compression=Z64", file);
    const before = area.value.slice(0, at);
    const origin = FIELD_ORIGIN_BEFORE.test(before) ? "" : "^FO0,0";
    area.setRangeText(origin + answer.zpl, at, area.selectionEnd, "end");
    area.focus();
    status.textContent = `Inserted ${file.name}: ${answer.width} x ${answer.height} dots`;
    scheduleRender();
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure(`${file.name} not converted`, error);
  }
}

// Engine warnings read "offset N: ^XX: message"; N counts UTF-8 bytes.
const WARNING = /^offset (\d+): (\S+): ([\s\S]*)$/;

function showWarnings(warnings) {
  if (warnings === null) return;
  const list = $("warnings");
  list.replaceChildren();
  $("warning-count").textContent = String(warnings.length);
  for (const text of warnings) {
    const item = document.createElement("li");
    const match = WARNING.exec(text);
    if (!match) {
      item.textContent = text;
    } else {
      const button = document.createElement("button");
      button.type = "button";
      const code = document.createElement("code");
      code.textContent = match[2];
      button.append(code, ` at byte ${match[1]}: ${match[3]}`);
      button.addEventListener("click", () => selectBytes(Number(match[1])));
      item.append(button);
    }
    list.append(item);
  }
}

// The textarea counts UTF-16 code units; the engine counts UTF-8 bytes.
function utf16Index(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    if (bytes >= byteOffset) break;
    const point = char.codePointAt(0);
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    index += char.length;
  }
  return index;
}

// A command runs from its prefix to the next ^ or ~.
function selectBytes(byteOffset) {
  const area = $("zpl");
  const start = utf16Index(area.value, byteOffset);
  const rest = area.value.slice(start + 1).search(/[\^~]/);
  const end = rest < 0 ? area.value.length : start + 1 + rest;
  area.focus();
  area.setSelectionRange(start, end);
}

// --- synthesis and review -------------------------------------------------------

const review = { synthesis: null, rows: [] };

async function synthesize(event) {
  event.preventDefault();
  const status = $("synth-status");
  const request = { input_zpl: $("synth-zpl").value };
  if ($("synth-hint").value.trim()) request.hint_template_id = $("synth-hint").value.trim();
  status.classList.remove("bad");
  status.textContent = "Synthesizing…";
  try {
    review.synthesis = await api("POST", "/v1/templates/synthesize", request);
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Not synthesized", error);
    return;
  }
  status.textContent = "Draft ready: review the fields, then commit.";
  showReview(review.synthesis);
  quietUsage();
  await renderDraft();
}

function failure(what, error) {
  if (error.status === 429) return `${what}: rate limited (429), Retry-After ${error.retryAfter} s.`;
  return `${what}: ${error.message}${error.kind ? ` (${error.kind})` : ""}`;
}

function showReview(synthesis) {
  const draft = synthesis.draft;
  $("review").hidden = false;
  $("confidence").textContent = `${synthesis.confidence_score.toFixed(2)} of 1`;
  $("low-confidence").hidden = !synthesis.low_confidence;
  const components = $("components");
  components.replaceChildren();
  for (const [name, value] of Object.entries(synthesis.confidence_components || {})) {
    const term = document.createElement("dt");
    term.textContent = name.replaceAll("_", " ");
    const figure = document.createElement("dd");
    figure.textContent = typeof value === "number" ? value.toFixed(3) : String(value);
    components.append(term, figure);
  }
  const warnings = $("synth-warnings");
  warnings.replaceChildren(...(synthesis.warnings || []).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
  const confidence = synthesis.field_confidence || {};
  review.rows = Object.entries(draft.field_map)
    .sort((a, b) => a[1] - b[1])
    .map(([name, fn]) => ({ fn, name, value: (draft.values || {})[name] ?? "",
      confidence: confidence[name] ?? null }));
  showFieldRows();
  $("commit-id").value = synthesis.template_id || draft.name || "";
  $("history").replaceChildren();
}

function showFieldRows() {
  const body = $("field-rows");
  body.replaceChildren();
  for (const row of review.rows) {
    const line = document.createElement("tr");
    const index = document.createElement("td");
    index.textContent = `^FN${row.fn}`;
    line.append(index, inputCell(row, "name", `Name of field ^FN${row.fn}`),
      inputCell(row, "value", `Sample value of field ^FN${row.fn}`));
    body.append(line);
  }
}

function inputCell(row, key, label) {
  const cell = document.createElement("td");
  const input = document.createElement("input");
  input.type = "text";
  input.value = row[key];
  input.defaultValue = row[key]; // the value attribute: what synthesis proposed
  input.setAttribute("aria-label", label);
  input.dataset.fn = String(row.fn);
  input.dataset.key = key;
  input.addEventListener("input", () => { row[key] = input.value; });
  input.addEventListener("change", () => relabelBoxes());
  input.addEventListener("focus", () => highlightField(row.fn));
  input.addEventListener("blur", () => highlightField(null));
  cell.append(input);
  return cell;
}

function currentDraft() {
  const draft = { ...review.synthesis.draft, field_map: {}, values: {} };
  for (const row of review.rows) {
    draft.field_map[row.name] = row.fn;
    draft.values[row.name] = row.value;
  }
  return draft;
}

const rowOf = (fn) => review.rows.find((row) => row.fn === fn);

function draftLabel(field) {
  const row = field.fn === null ? null : rowOf(field.fn);
  return row ? `${row.name} · ^FN${row.fn} · ${row.value}` : null;
}

function relabelBoxes() {
  for (const box of $("review-preview").querySelectorAll(".box")) {
    const row = box.dataset.fn ? rowOf(Number(box.dataset.fn)) : null;
    const tag = box.querySelector("span");
    if (row && tag) tag.textContent = `${row.name} · ^FN${row.fn} · ${row.value}`;
  }
}

// The boxes of the field whose name or sample has the focus stand out.
function highlightField(fn) {
  for (const box of $("review-preview").querySelectorAll(".box")) {
    box.classList.toggle("active", fn !== null && box.dataset.fn === String(fn));
  }
}

// The draft with its samples filled in, rendered with its field boxes: the boxes
// name their ^FN index, which names the field.
async function renderDraft() {
  const draft = currentDraft();
  const status = $("review-status");
  status.classList.remove("bad");
  status.textContent = "Rendering the draft…";
  const dpi = draft.source_dpi || 203;
  const request = { zpl: fillBody(draft.body, draft.field_map, draft.values), fields: true,
    source_dpi: dpi, target_dpi: dpi };
  if (draft.width_dots && draft.height_dots) {
    request.width_dots = draft.width_dots;
    request.height_dots = draft.height_dots;
  }
  try {
    const answer = await api("POST", "/v1/labels", request);
    const variable = (answer.fields || []).filter((field) => field.fn !== null && rowOf(field.fn));
    showPreview($("review-preview"), { ...answer, fields: variable }, draftLabel,
      (field) => rowOf(field.fn)?.confidence ?? null);
    status.textContent = `${variable.length} variable field boxes outlined.`;
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Draft not rendered", error);
  }
}

// Fills ^FN placeholders the way the service does (synth/fill.py), for the preview
// only (a commit sends the body and values, and the service fills them): the value
// is the field's data, appended to any ^FD after the ^FN, with every character the
// printer would read as something else (the prefixes, the ^FH indicator, control
// characters) written as a ^FH hex escape. ^CC and ^CT change the prefixes.
const INDICATORS = "_\\#%!&*+=|@$?";

function fillBody(body, fieldMap, values) {
  const byIndex = new Map(Object.entries(fieldMap).map(([name, fn]) => [fn, values[name] ?? ""]));
  const prefixes = { format: "^", control: "~" };
  let filled = "";
  let start = 0;
  for (let at = 0; at < body.length - 2; at += 1) {
    if (body[at] !== prefixes.format && body[at] !== prefixes.control) continue;
    const name = body.slice(at + 1, at + 3).toUpperCase();
    if ((name === "CC" || name === "CT") && at + 3 < body.length) {
      prefixes[name === "CC" ? "format" : "control"] = body[at + 3];
      at += 3;
    } else if (body[at] === prefixes.format && (name === "FS" || name === "XZ")) {
      filled += fillField(body.slice(start, at), prefixes, byIndex);
      start = at;
      at += 2;
    }
  }
  return filled + fillField(body.slice(start), prefixes, byIndex);
}

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function fillField(part, prefixes, byIndex) {
  const format = literal(prefixes.format);
  const placeholder = new RegExp(`${format}FN\\s*(\\d+)`, "i").exec(part);
  if (!placeholder || !byIndex.has(Number(placeholder[1]))) return part;
  const value = [...byIndex.get(Number(placeholder[1]))];
  const existing = new RegExp(`${format}FH(.?)`, "i").exec(part);
  let indicator = existing
    ? (existing[1] && existing[1] !== prefixes.format ? existing[1] : "_") : null;
  const special = (char) => char < " " || char === indicator
    || ["^", "~", prefixes.format, prefixes.control].includes(char);
  let fh = "";
  if (indicator === null && value.some(special)) {
    indicator = [...INDICATORS].find((char) => !part.includes(char)
      && char !== prefixes.format && char !== prefixes.control) || "_";
    fh = `${prefixes.format}FH${indicator}`;
  }
  const escaped = value.map((char) => (special(char)
    ? indicator + char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0") : char)).join("");
  const data = new RegExp(`${format}FD`, "i");
  const after = placeholder.index + placeholder[0].length;
  const found = data.exec(part.slice(after));
  if (found) {
    const at = after + found.index;
    return part.slice(0, at) + fh + part.slice(at) + escaped;
  }
  return `${part}${fh}${prefixes.format}FD${escaped}`;
}

async function commit(event) {
  event.preventDefault();
  const id = $("commit-id").value.trim();
  const status = $("commit-status");
  status.classList.remove("bad");
  if (!id) {
    status.classList.add("bad");
    status.textContent = "Give the template an id.";
    return;
  }
  try {
    const answer = await api("POST", `/v1/templates/${encodeURIComponent(id)}`,
      { draft: currentDraft() });
    status.textContent = `Committed ${answer.template_id} version ${answer.version} ` +
      `(fields: ${answer.field_names.join(", ")}).`;
    committedSamples.set(id, { ...currentDraft().values });
    await showHistory(id);
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Not committed", error);
  }
}

async function showHistory(id) {
  const listing = await api("GET", "/v1/templates");
  const found = listing.templates.find((template) => template.id === id);
  const list = $("history");
  list.replaceChildren();
  if (!found) return;
  for (const version of [...found.versions].reverse()) {
    const item = document.createElement("li");
    item.textContent = `version ${version}${version === found.latest_version ? " (latest)" : ""}`;
    list.append(item);
  }
  const updated = document.createElement("li");
  updated.textContent = `created ${found.created_at}, updated ${found.updated_at}`;
  list.append(updated);
  showTemplates(listing.templates);
}

// --- templates and render from data ---------------------------------------------

const committedSamples = new Map(); // template id -> the samples it was committed with
let chosen = null;

async function refreshTemplates() {
  const status = $("templates-status");
  status.classList.remove("bad");
  try {
    const listing = await api("GET", "/v1/templates");
    showTemplates(listing.templates);
    status.textContent = `${listing.templates.length} templates.`;
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Templates not listed", error);
  }
}

function showTemplates(list) {
  const rows = $("template-rows");
  rows.replaceChildren();
  for (const template of list) {
    const row = document.createElement("tr");
    const cells = [template.id, template.scope, template.versions.join(", "),
      template.field_names.join(", ")].map((text) => {
      const cell = document.createElement("td");
      cell.textContent = text;
      return cell;
    });
    const action = document.createElement("td");
    const use = document.createElement("button");
    use.type = "button";
    use.textContent = "Use";
    use.setAttribute("aria-label", `Use template ${template.id}`);
    use.addEventListener("click", () => chooseTemplate(template));
    action.append(use);
    row.append(...cells, action);
    rows.append(row);
  }
}

function chooseTemplate(template) {
  chosen = template;
  $("render-form").hidden = false;
  $("render-form-title").textContent = `Render ${template.id}`;
  $("render-version").replaceChildren(...[...template.versions].reverse().map((version) => {
    const option = document.createElement("option");
    option.value = String(version);
    option.textContent = `version ${version}`;
    return option;
  }));
  const samples = committedSamples.get(template.id) || {};
  $("render-fields").replaceChildren(...template.field_names.map((name, index) => {
    const label = document.createElement("label");
    label.htmlFor = `render-field-${index}`;
    label.textContent = name;
    const input = document.createElement("input");
    input.id = `render-field-${index}`;
    input.type = "text";
    input.name = name;
    input.value = samples[name] ?? "";
    return [label, input];
  }).flat());
  $("render-fields").querySelector("input")?.focus();
}

async function renderFromData(event) {
  event.preventDefault();
  const fields = {};
  for (const input of $("render-fields").querySelectorAll("input")) fields[input.name] = input.value;
  const status = $("render-status");
  status.classList.remove("bad");
  status.textContent = "Rendering…";
  try {
    const answer = await api("POST", "/v1/labels/from-data", {
      template_id: chosen.id, template_version: Number($("render-version").value), fields,
    });
    showPreview($("render-preview"), answer, null);
    $("render-result").hidden = false;
    $("render-hash").textContent = answer.content_hash;
    $("render-cached").textContent = String(answer.cached);
    status.textContent = `Rendered ${chosen.id} version ${answer.template_version}.`;
    quietUsage();
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Not rendered", error);
  }
}

// --- batches: a template and a CSV into one PDF ---------------------------------

const BATCH_POLL_MS = 1000;
let batchTimer = null;

async function refreshBatchTemplates() {
  try {
    const listing = await api("GET", "/v1/templates");
    $("batch-template").replaceChildren(...listing.templates.map((template) => {
      const option = document.createElement("option");
      option.value = template.id;
      option.textContent = template.id;
      option.title = `Fields: ${template.field_names.join(", ")}`;
      return option;
    }));
  } catch (error) {
    $("batch-status").textContent = failure("Templates not listed", error);
  }
}

async function startBatch(event) {
  event.preventDefault();
  const file = $("batch-file").files[0];
  const status = $("batch-status");
  status.classList.remove("bad");
  clearTimeout(batchTimer);
  $("batch-pdf").hidden = true;
  $("batch-errors").replaceChildren();
  $("batch-errors-title").hidden = true;
  if (!file) return;
  const csv = file.type ? file : new Blob([file], { type: "text/csv" });
  const query = new URLSearchParams({ template_id: $("batch-template").value });
  try {
    const batch = await api("POST", `/v1/labels/batches?${query}`, csv);
    showBatch(batch);
  } catch (error) {
    status.classList.add("bad");
    status.textContent = failure("Batch not started", error);
  }
}

function showBatch(batch) {
  const { counts } = batch;
  const progress = $("batch-progress");
  progress.hidden = false;
  progress.value = batch.progress;
  $("batch-status").textContent = `${batch.batch_id}: ${batch.state}, ` +
    `${counts.done + counts.failed} of ${batch.rows} rows (${counts.cached} cached, ` +
    `${counts.failed} failed).`;
  $("batch-errors-title").hidden = batch.errors.length === 0;
  $("batch-errors").replaceChildren(...batch.errors.map((row) => {
    const item = document.createElement("li");
    item.textContent = `Row ${row.row}: ${row.kind}${row.field ? ` (${row.field})` : ""}: ` +
      row.message;
    return item;
  }));
  if (batch.state === "completed") {
    quietUsage();
    if (batch.pdf_url) {
      $("batch-pdf").href = batch.pdf_url;
      $("batch-pdf").hidden = false;
    }
    return;
  }
  batchTimer = setTimeout(() => followBatch(batch.batch_id), BATCH_POLL_MS);
}

async function followBatch(batchId) {
  try {
    showBatch(await api("GET", `/v1/labels/batches/${encodeURIComponent(batchId)}`));
  } catch (error) {
    $("batch-status").textContent = failure("Batch state not read; retrying", error);
    batchTimer = setTimeout(() => followBatch(batchId), BATCH_POLL_MS * 2);
  }
}

// --- wiring ----------------------------------------------------------------------

function start() {
  $("sign-in-form").addEventListener("submit", signIn);
  $("sign-out").addEventListener("click", signOut);
  for (const name of ["editor", "synth", "templates", "batch"]) {
    $(`tab-${name}`).addEventListener("click", () => {
      showTab(name);
      if (name === "templates") refreshTemplates();
      if (name === "batch") refreshBatchTemplates();
    });
  }
  $("zpl").addEventListener("input", scheduleRender);
  $("zpl").addEventListener("dragover", (event) => {
    if (dragsFiles(event)) event.preventDefault();
  });
  $("zpl").addEventListener("drop", dropGraphic);
  for (const id of ["opt-dpi", "opt-width", "opt-height", "opt-rotation", "opt-font",
    "opt-threshold", "opt-boxes"]) {
    $(id).addEventListener("change", scheduleRender);
  }
  $("synth-form").addEventListener("submit", synthesize);
  $("review-refresh").addEventListener("click", renderDraft);
  $("commit-form").addEventListener("submit", commit);
  $("templates-refresh").addEventListener("click", refreshTemplates);
  $("render-form").addEventListener("submit", renderFromData);
  $("batch-form").addEventListener("submit", startBatch);
  if (sessionStorage.getItem(KEY_STORE)) {
    refreshUsage().then(enterApp, () => sessionStorage.removeItem(KEY_STORE));
  }
}

start();
