// Tests for record(): what `statewright record` hears of a person's acts. Real input events
// (playwright-core's mouse and keyboard go through the DevTools protocol's Input domain, as a
// person's do) on /usr/bin/chromium; the reports arrive through a binding, as in the recorder.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIB_SOURCE } from '../library.mjs';
import { base, freshContext } from '../pages.mjs';

/** A page showing `html` with the recorder on; returns it and the list its reports go to. */
async function recording(html) {
  const context = await freshContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const reports = [];
  await page.exposeBinding('__swRecord', (_source, json) => { reports.push(JSON.parse(json)); });
  await page.addInitScript({ content: LIB_SOURCE });
  await page.goto(`${base}/blank.html`);
  await page.setContent(html);
  assert.equal(await page.evaluate(() => window.__statewright.record('__swRecord')), true);
  return { page, reports };
}

/** Waits until `n` reports have arrived (bindings are asynchronous). */
async function arrived(reports, n) {
  for (let i = 0; i < 100 && reports.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  return reports;
}

describe('record', () => {
  test('a click is reported with the page before it and its most stable locator', async () => {
    const cards = ['Kettle', 'Pan', 'Pot'].map((n) => `<article><h3>${n}</h3><button>Add to cart</button></article>`);
    const { page, reports } = await recording(`<h1>Results</h1><section>${cards.join('')}</section>
      <script>document.querySelectorAll('button').forEach((b) => b.onclick = () => { b.textContent = 'Added'; });</script>`);
    await page.locator('article').nth(1).getByRole('button').click();
    const [r] = await arrived(reports, 1);
    assert.equal(r.kind, 'click');
    assert.deepEqual(r.target, { xpath: "//article[.//h3[normalize-space()='Pan']]//button[normalize-space()='Add to cart']" });
    assert.deepEqual(r.alternatives[1], { role: 'button', name: 'Add to cart', nth: 1 });
    assert.equal(r.count, 1);
    assert.equal(r.button, 'left');
    // The page as it was before the page's handler ran: the button still says "Add to cart".
    assert.equal(r.page.elements.filter((e) => e.name === 'Add to cart').length, 3);
    assert.ok(r.page.text.includes('Results'));
  });

  test('typing is one report per field, with the final text; a password\'s value never leaves the page', async () => {
    const { page, reports } = await recording(`<form>
      <label for="u">Username</label><input id="u">
      <label for="p">Password</label><input id="p" type="password">
      <button type="button">Sign in</button></form>`);
    await page.getByLabel('Username').click();
    await page.keyboard.type('alice');
    await page.getByLabel('Password').click();
    await page.keyboard.type('hunter2');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await arrived(reports, 4);
    assert.deepEqual(reports.map((r) => r.kind), ['type', 'type', 'key', 'click'], JSON.stringify(reports.map((r) => r.kind)));
    assert.deepEqual([reports[0].text, reports[0].secret, reports[0].target], ['alice', false, { role: 'textbox', name: 'Username' }]);
    assert.deepEqual([reports[1].text, reports[1].secret], ['', true]);
    assert.ok(!JSON.stringify(reports).includes('hunter2'), 'the password is in no report');
    assert.equal(reports[2].key, 'Enter');
    assert.deepEqual(reports[3].target, { role: 'button', name: 'Sign in' });
    // Numbered in the order they were told, within this document, which says how many it told.
    assert.deepEqual(reports.map((r) => r.seq), [1, 2, 3, 4]);
    const doc = reports[0].doc;
    assert.ok(doc > 1.7e12 && reports.every((r) => r.doc === doc), 'the document is its time origin, in ms');
    assert.deepEqual(await page.evaluate(() => window.__statewright.recorded()), { doc, seq: 4 });
  });

  test('a label\'s click is reported once, as its control\'s; selects report value and label; a colour its value', async () => {
    const { page, reports } = await recording(`<label><input type="checkbox" id="terms"> I agree</label>
      <select id="qty"><option value="1">One</option><option value="2">Two</option></select>
      <input type="color" id="tint" aria-label="Tint">`);
    await page.getByText('I agree').click();
    await page.locator('#qty').selectOption('2');
    await page.locator('#tint').fill('#ff8800');
    await arrived(reports, 3);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(reports.map((r) => r.kind), ['check', 'select', 'type']);
    assert.deepEqual([reports[0].target, reports[0].checked], [{ role: 'checkbox', name: 'I agree' }, true]);
    assert.deepEqual([reports[1].value, reports[1].label], ['2', 'Two']);
    // A colour chosen in the picker is the field's value, given whole on replay.
    assert.deepEqual([reports[2].text, reports[2].description], ['#ff8800', 'input#tint "Tint"']);
  });

  test('a <select multiple> is one choice of every option selected when the person leaves it', async () => {
    const { page, reports } = await recording(`
      <select id="people" multiple size="4" aria-label="People"><option value="l">Leia</option>
        <option value="o">Obi-Wan</option><option value="y">Yoda</option><option value="c">Leia, Yoda</option></select>
      <button type="button">Submit</button>`);
    // As a person chooses: a click, then a click with Control held for each other one.
    await page.locator('#people option[value=l]').click();
    await page.locator('#people option[value=y]').click({ modifiers: ['Control'] });
    await page.locator('#people option[value=c]').click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: 'Submit' }).click();
    await arrived(reports, 2);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(reports.map((r) => r.kind), ['select', 'click'], JSON.stringify(reports.map((r) => r.kind)));
    assert.deepEqual(reports[0].label, ['Leia', 'Yoda', 'Leia, Yoda']);
    assert.equal(reports[0].value, undefined, 'by labels, as a person reads them');
    assert.equal(reports[0].description, 'select#people "People"');
  });

  test('an option of a list a page draws is a choice through the control that opened it', async () => {
    const { page, reports } = await recording(`
      <button id="size" aria-haspopup="listbox" aria-label="Size">Choose</button>
      <ul role="listbox" hidden><li role="option">Small</li><li role="option">Medium <small>(M)</small></li></ul>
      <input id="city" role="combobox" aria-label="City" aria-controls="cities" autocomplete="off">
      <div role="listbox" id="cities" hidden><div role="option">Berlin</div><div role="option">Bern</div></div>
      <div role="listbox" aria-label="Always shown"><div role="option">Red</div></div>
      <script>
        const list = document.querySelector('ul');
        document.getElementById('size').onclick = () => { list.hidden = !list.hidden; };
        list.onclick = (e) => { document.getElementById('size').textContent = e.target.closest('li').textContent; list.hidden = true; };
        document.getElementById('city').oninput = () => { document.getElementById('cities').hidden = false; };
      </script>`);
    await page.getByRole('button', { name: 'Size' }).click();
    await page.getByRole('option', { name: 'Medium (M)' }).click();
    await page.getByRole('combobox', { name: 'City' }).click();
    await page.keyboard.type('Ber');
    await page.getByRole('option', { name: 'Bern' }).click();
    // A list no control opens, after an act that was no click: the option is clicked.
    await page.getByRole('option', { name: 'Red' }).click();
    await arrived(reports, 5);
    assert.deepEqual(reports.map((r) => [r.kind, r.description, r.label]), [
      ['click', 'button#size "Size"', undefined],
      ['select', 'button#size "Size"', 'Medium (M)'],
      ['type', 'input#city "City"', undefined],
      ['select', 'input#city "City"', 'Bern'],
      ['click', 'div "Red"', undefined],
    ]);
    // The choice is told with the page its opening click found: the list still closed.
    assert.deepEqual(reports[1].page, reports[0].page);
    assert.ok(!reports[1].page.elements.some((e) => e.name === 'Small'), 'the list was closed');
    assert.ok(reports[3].page.elements.some((e) => e.name === 'Bern'), 'a suggestion shows as it is chosen');
  });

  test('a box is reported as the state the click set it to, native or ARIA, before the page redraws it', async () => {
    const { page, reports } = await recording(`<label><input type="checkbox" id="news" checked> News</label>
      <label><input type="radio" name="ship" value="a" checked> Standard</label>
      <label><input type="radio" name="ship" value="b"> Express</label>
      <div role="switch" aria-checked="false" aria-label="Dark mode"><span class="knob">◯</span></div>
      <div role="radio" aria-checked="true" aria-label="Monthly">Monthly</div>
      <script>document.querySelector('[role=switch]').onclick = (e) => e.currentTarget.setAttribute('aria-checked',
        String(e.currentTarget.getAttribute('aria-checked') !== 'true'));</script>`);
    await page.getByText('News').click();
    await page.getByText('Express').click();
    await page.locator('.knob').click();
    await page.locator('.knob').click();
    await page.getByText('Monthly').click();
    await arrived(reports, 5);
    assert.deepEqual(reports.map((r) => [r.kind, r.description, r.checked]), [
      ['check', 'input#news "News"', false],
      ['check', 'input[name="ship"] "Express"', true],
      ['check', 'div "Dark mode"', true],
      ['check', 'div "Dark mode"', false],
      ['check', 'div "Monthly"', true],
    ]);
  });

  test('a drag and drop is one report, from the element lifted to the one it was dropped on', async () => {
    const { page, reports } = await recording(`<section aria-label="To do"><div draggable="true" id="call">Call Ada</div></section>
      <section aria-label="Done" id="done"><h2>Done</h2></section>
      <script>document.getElementById('call').ondragstart = (e) => e.dataTransfer.setData('text/plain', 'call');
        const done = document.getElementById('done');
        done.ondragover = (e) => e.preventDefault();
        done.ondrop = (e) => { e.preventDefault(); done.append(document.getElementById(e.dataTransfer.getData('text/plain'))); };</script>`);
    await page.dragAndDrop('#call', '#done h2');
    await arrived(reports, 1);
    assert.equal(await page.evaluate(() => document.querySelector('#done #call') !== null), true, 'the page took the drop');
    assert.deepEqual(reports.map((r) => [r.kind, r.description]), [['drag', 'div#call']]);
    assert.deepEqual(reports[0].to, { role: 'heading', name: 'Done' });
  });

  test('files dropped from the desktop on a drop zone are an upload through it, by name', async () => {
    const { page, reports } = await recording(`<div id="zone" style="width: 300px; height: 100px; border: 2px dashed">Drop invoices here</div>
      <script>const zone = document.getElementById('zone');
        zone.ondragover = (e) => e.preventDefault();
        zone.ondrop = (e) => { e.preventDefault(); zone.textContent = e.dataTransfer.files.length + ' received'; };</script>`);
    const dir = mkdtempSync(join(tmpdir(), 'sw-drop-'));
    const files = ['march.pdf', 'april.pdf'].map((n) => { writeFileSync(join(dir, n), n); return join(dir, n); });
    const box = await page.locator('#zone').boundingBox();
    const cdp = await page.context().newCDPSession(page);
    const data = { items: [], files, dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop']) {
      await cdp.send('Input.dispatchDragEvent', { type, x: box.x + 50, y: box.y + 50, data });
    }
    await arrived(reports, 1);
    assert.equal(await page.locator('#zone').textContent(), '2 received');
    assert.deepEqual(reports.map((r) => [r.kind, r.description, r.files]), [['upload', 'div#zone', ['march.pdf', 'april.pdf']]]);
  });

  test('a drag the page follows with the pointer is heard at the release, with where it was let go', async () => {
    const { page, reports } = await recording(`<style>#track { position: relative; width: 400px; height: 10px; margin: 40px; background: #ccc; }
      #knob { position: absolute; left: 0; top: -10px; width: 20px; height: 30px; margin-left: -10px; background: #36c; }
      .row { cursor: grab; padding: 8px; border: 1px solid; width: 200px; }</style>
      <div id="track"><div id="knob" role="slider" aria-label="Volume" aria-valuenow="0"></div></div>
      <div class="row" id="a">Alpha</div><div class="row" id="b">Beta</div>
      <p id="prose">Some words a person may select by dragging over them.</p>
      <script>const knob = document.getElementById('knob'), track = document.getElementById('track');
        knob.onpointerdown = (e) => knob.setPointerCapture(e.pointerId);
        knob.onpointermove = (e) => { if (!knob.hasPointerCapture(e.pointerId)) return;
          const r = track.getBoundingClientRect();
          knob.style.left = Math.max(0, Math.min(100, (e.clientX - r.left) / r.width * 100)) + '%'; };</script>`);
    const box = async (sel) => page.locator(sel).boundingBox();
    const knob = await box('#knob');
    const track = await box('#track');
    await page.mouse.move(knob.x + knob.width / 2, knob.y + knob.height / 2);
    await page.mouse.down();
    await page.mouse.move(track.x + track.width * 0.75, track.y + track.height / 2, { steps: 8 });
    await page.mouse.up();
    // A row carried onto the other one, low on it.
    const a = await box('#a');
    const b = await box('#b');
    await page.mouse.move(a.x + 20, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + 20, b.y + b.height * 0.8, { steps: 8 });
    await page.mouse.up();
    // Text selected, and a row clicked where it is: no drags.
    const prose = await box('#prose');
    await page.mouse.move(prose.x + 2, prose.y + prose.height / 2);
    await page.mouse.down();
    await page.mouse.move(prose.x + 200, prose.y + prose.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.locator('#b').click();
    await arrived(reports, 3);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(reports.map((r) => [r.kind, r.description]), [
      ['drag', 'div#knob "Volume"'], ['drag', 'div#a'], ['click', 'div#b'],
    ]);
    assert.deepEqual(reports[0].to, { css: '#track' });
    assert.ok(Math.abs(reports[0].position.x - 0.75) <= 0.02, JSON.stringify(reports[0].position));
    assert.deepEqual(reports[1].to, { css: '#b' });
    assert.ok(reports[1].position.y >= 0.7 && reports[1].position.y <= 0.9, JSON.stringify(reports[1].position));
  });

  test('acts inside a dialog say so; script clicks are not a person\'s', async () => {
    const { page, reports } = await recording(`<main><button id="go">Go</button></main>
      <div role="dialog" aria-modal="true" aria-labelledby="t"><h2 id="t">We value your privacy</h2>
      <button id="ok">Accept all</button></div>`);
    await page.evaluate(() => document.getElementById('go').click());
    await page.getByRole('button', { name: 'Accept all' }).click();
    await arrived(reports, 1);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(reports.length, 1, 'the scripted click is not reported');
    assert.equal(reports[0].dialog, 'We value your privacy');
    const inDialog = reports[0].page.elements.find((e) => e.name === 'Accept all');
    assert.equal(inDialog.dialog, 'We value your privacy', 'snapshots mark what is inside a dialog');
    assert.equal(reports[0].page.elements.find((e) => e.name === 'Go').dialog, undefined);
  });

  test('acts in same-origin frames, there from the start or added later, are reported once, from the top', async () => {
    const form = '<label for=&quot;n&quot;>Name</label><input id=&quot;n&quot;><button type=&quot;button&quot;>Send</button>';
    const { page, reports } = await recording(`<h1>Shop</h1><iframe id="f" style="width:600px;height:200px" srcdoc="${form}"></iframe>`);
    const frame = page.frameLocator('#f');
    // The frame's own library defers to the top's recorder: one report per act.
    assert.equal(await page.frame({ url: /srcdoc/ }).evaluate(() => window.__statewright.record('__swRecord')), true);
    await frame.getByLabel('Name').click();
    await page.keyboard.type('Ada');
    await frame.getByRole('button', { name: 'Send' }).click();
    await page.evaluate(() => {
      const late = document.createElement('iframe');
      late.id = 'late';
      late.srcdoc = '<button>Late frame button</button>';
      document.body.append(late);
    });
    await page.frameLocator('#late').getByRole('button', { name: 'Late frame button' }).click();
    await arrived(reports, 3);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(reports.map((r) => r.kind), ['type', 'click', 'click'], JSON.stringify(reports.map((r) => [r.kind, r.description])));
    assert.deepEqual([reports[0].text, reports[0].description], ['Ada', 'input#n "Name"']);
    // The page is the whole page, and each target finds the element in its frame from the top.
    assert.ok(reports[1].page.text.includes('Shop') && reports[1].page.elements.some((e) => e.name === 'Send'));
    for (const [r, description] of [[reports[0], 'input#n "Name"'], [reports[1], 'button "Send"'], [reports[2], 'button "Late frame button"']]) {
      const found = await page.evaluate((t) => window.__statewright.describe(t), r.target);
      assert.deepEqual([found.count, found.description], [1, description], JSON.stringify(r.target));
    }
  });

  test('a scroll that matters is one report with its distance', async () => {
    const { page, reports } = await recording(`<div style="height:5000px">tall</div>`);
    await page.mouse.move(500, 300);
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 200);
    await arrived(reports, 1);
    assert.equal(reports.length, 1);
    assert.equal(reports[0].kind, 'scroll');
    assert.equal(reports[0].dy, 1200);
  });
});
