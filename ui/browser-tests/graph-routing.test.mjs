// The demo workflow's graph as drawn: edges routed in horizontal and vertical segments
// between ports on the states' borders (not only top and bottom), labels clear of states
// and of each other, the consent popup in a lane of its own with a marker instead of
// edges, node details only where they can be read (names stay large), no two boxes
// overlapping, and a dragged state never leaving bends hanging in the air.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => {
  app = await openApp();
  await app.page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await app.page.waitForFunction(() => {
    const paths = [...document.querySelectorAll('.react-flow__edge-path')];
    return paths.length > 0 && paths.every((p) => p.classList.contains('routed'));
  });
});
after(async () => app?.close());

/** In graph units: every state's box, the lane's, and every edge as its ends and points. */
const drawing = (page) =>
  page.evaluate(() => {
    const box = (n) => {
      const m = new DOMMatrix(getComputedStyle(n).transform);
      return { x: m.e, y: m.f, width: n.offsetWidth, height: n.offsetHeight };
    };
    const states = Object.fromEntries([...document.querySelectorAll('.react-flow__node-state')].map((n) => [n.dataset.id, box(n)]));
    const laneNode = document.querySelector('.react-flow__node-lane');
    const edges = [...document.querySelectorAll('.react-flow__edge')].map((g) => {
      const [, from, to] = /^\w+:(.*)\u0000(.*)$/.exec(g.dataset.id);
      const path = g.querySelector('.react-flow__edge-path');
      return { from, to, routed: path.classList.contains('routed'), d: path.getAttribute('d') };
    });
    const zoom = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform).a;
    return { states, lane: laneNode && box(laneNode), edges, zoom };
  });

/** The points of a path made of M and L commands only; null if it has curves. */
function polyline(d) {
  if (/[^ML\d\s,.\-e]/i.test(d)) return null;
  const nums = d.match(/-?[\d.]+(e-?\d+)?/g).map(Number);
  return nums.flatMap((_, i) => (i % 2 ? [] : [{ x: nums[i], y: nums[i + 1] }]));
}

/** Which side of `b` the point lies on (within `slack`), or null if it is not on its border. */
function sideOf(p, b, slack = 1.5) {
  const inX = p.x >= b.x - slack && p.x <= b.x + b.width + slack;
  const inY = p.y >= b.y - slack && p.y <= b.y + b.height + slack;
  if (inX && Math.abs(p.y - b.y) <= slack) return 'top';
  if (inX && Math.abs(p.y - (b.y + b.height)) <= slack) return 'bottom';
  if (inY && Math.abs(p.x - b.x) <= slack) return 'left';
  if (inY && Math.abs(p.x - (b.x + b.width)) <= slack) return 'right';
  return null;
}

const apart = (a, b) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

test('every edge runs in horizontal and vertical segments from border to border, on more sides than top and bottom', async () => {
  const { edges, states } = await drawing(app.page);
  // demo-shop declares 21 next edges between states that are not interrupts.
  assert.equal(edges.length, 21, `edges: ${edges.map((e) => `${e.from}→${e.to}`)}`);
  const sides = new Set();
  for (const e of edges) {
    const name = `${e.from} → ${e.to}`;
    assert.ok(e.routed, `${name} follows its route`);
    const points = polyline(e.d);
    assert.ok(points && points.length >= 2, `${name} is straight segments: ${e.d}`);
    for (const [i, b] of points.slice(1).entries()) {
      const a = points[i];
      assert.ok(Math.abs(a.x - b.x) < 0.2 || Math.abs(a.y - b.y) < 0.2, `${name}: segment ${i} is slanted (${a.x},${a.y} → ${b.x},${b.y})`);
    }
    const out = sideOf(points[0], states[e.from]);
    const into = sideOf(points.at(-1), states[e.to]);
    assert.ok(out && into, `${name} starts and ends on its states' borders: ${e.d}`);
    sides.add(out).add(into);
  }
  assert.ok(sides.has('right') || sides.has('left'), `edges meet states on ${[...sides]}`);
  assert.deepEqual(app.errors, []);
});

test('the consent popup sits in its own lane, apart from the flow, marked instead of wired', async () => {
  const { page } = app;
  const { states, lane, edges } = await drawing(page);
  assert.ok(lane, 'there is an interrupt lane');
  assert.match(await page.getByTestId('interrupt-lane').innerText(), /Interrupts — checked before every state/);
  const popup = states['Consent popup'];
  assert.ok(popup.x >= lane.x && popup.x + popup.width <= lane.x + lane.width && popup.y >= lane.y && popup.y + popup.height <= lane.y + lane.height, 'the popup is inside its lane');
  const flow = Object.entries(states).filter(([name]) => name !== 'Consent popup').map(([, b]) => b);
  const bounds = {
    x: Math.min(...flow.map((b) => b.x)),
    y: Math.min(...flow.map((b) => b.y)),
    width: Math.max(...flow.map((b) => b.x + b.width)) - Math.min(...flow.map((b) => b.x)),
    height: Math.max(...flow.map((b) => b.y + b.height)) - Math.min(...flow.map((b) => b.y)),
  };
  assert.ok(apart(lane, bounds), `the lane ${JSON.stringify(lane)} is clear of the flow ${JSON.stringify(bounds)}`);
  // Start declares `next: Consent popup`, and the stored run may pass through it: neither is drawn.
  assert.deepEqual(edges.filter((e) => e.from === 'Consent popup' || e.to === 'Consent popup'), []);
  const marker = page.getByTestId('node-Consent popup').getByTestId('interrupt-marker');
  assert.ok(await marker.isVisible(), 'the popup is marked');
  assert.equal(await marker.innerText(), 'from any state');
});

test('the stored run’s labels on the edges cover neither a state nor one another', async () => {
  const { page } = app;
  // The fake holds one recorded run of the demo: nine of its edges carry what it took.
  await page.waitForFunction(() => document.querySelectorAll('.react-flow__edge-textbg').length >= 9);
  const { labels, states } = await page.evaluate(() => {
    const rect = (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return {
      labels: [...document.querySelectorAll('.react-flow__edge-textwrapper')].map((w) => ({ text: w.textContent, ...rect(w.querySelector('.react-flow__edge-textbg')) })),
      states: [...document.querySelectorAll('.react-flow__node-state')].map((n) => ({ name: n.dataset.id, ...rect(n) })),
    };
  });
  for (const [i, l] of labels.entries()) {
    for (const s of states) assert.ok(apart(l, s), `“${l.text}” covers ${s.name}`);
    for (const m of labels.slice(i + 1)) assert.ok(apart(l, m), `“${l.text}” covers “${m.text}”`);
  }
});

test('no two states overlap', async () => {
  const { states } = await drawing(app.page);
  const boxes = Object.entries(states);
  assert.equal(boxes.length, 15);
  for (const [i, [a, ba]] of boxes.entries()) for (const [b, bb] of boxes.slice(i + 1)) assert.ok(apart(ba, bb), `${a} and ${b} overlap`);
});

const zoomOf = (page) => page.locator('.react-flow__viewport').evaluate((v) => new DOMMatrix(getComputedStyle(v).transform).a);
const linesIn = (page, state) => page.locator(`.state-node[data-state="${state}"] .node-line`).count();

test('details show where they can be read or on the selected state; names stay readable further out', async () => {
  const { page } = app;
  const opened = await drawing(page);
  assert.ok(opened.zoom >= 0.6, `opens at a readable zoom: ${opened.zoom}`);
  assert.equal(await linesIn(page, 'Cart'), 5, 'Cart shows its 3 checks and 2 actions');

  while ((await zoomOf(page)) >= 0.6) {
    const before = await zoomOf(page);
    await page.getByRole('button', { name: 'Zoom Out' }).click();
    await page.waitForFunction((z) => new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform).a < z, before);
  }
  await page.waitForFunction(() => !document.querySelector('.state-node .node-line'));
  const zoom = await zoomOf(page);
  const names = await page.locator('.state-node .node-name').evaluateAll((ns) => ns.map((n) => ({ name: n.textContent, px: parseFloat(getComputedStyle(n).fontSize), shown: n.getBoundingClientRect().height > 0 })));
  assert.equal(names.length, 15);
  for (const n of names) {
    assert.ok(n.shown, `${n.name} is shown`);
    assert.ok(n.px * zoom >= 11, `${n.name} is ${(n.px * zoom).toFixed(1)} px on screen at zoom ${zoom.toFixed(2)}`);
  }
  assert.ok(await page.locator('.state-node[data-state="Cart"] .node-priority').isVisible(), 'the priority stays');
  assert.equal(await page.locator('.state-node[data-state="Order confirmed"] .outcome-success').innerText(), 'success');
  // The boxes keep their laid-out size: edges stay on their borders.
  const far = await drawing(page);
  for (const [name, b] of Object.entries(far.states)) assert.equal(b.height, opened.states[name].height, `${name} keeps its height`);
  assert.ok(far.edges.every((e) => e.routed));

  // Selected from the keyboard, not clicked: this far out a node may sit under the edge of
  // the canvas, and a search would zoom in.
  await page.locator('.react-flow__node[data-id="Cart"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('.state-node.selected[data-state="Cart"] .node-line');
  assert.ok((await zoomOf(page)) < 0.6, 'still far out');
  assert.equal(await linesIn(page, 'Cart'), 5, 'the selected state shows its details');
  assert.equal(await linesIn(page, 'Home page'), 0, 'the others do not');
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.waitForFunction(() => !document.querySelector('.state-node .node-line'));
  assert.deepEqual(app.errors, []);
});

test('a moved state’s edges are drawn plainly to where it is now; Layout routes them again', async () => {
  const { page } = app;
  const laidOut = (await drawing(page)).states.Cart;
  // Found and centred, so that it is on screen to be dragged.
  await page.getByLabel('search states').fill('Cart');
  await page.getByLabel('search states').press('Enter');
  const cart = page.locator('.state-node[data-state="Cart"]');
  await page.waitForFunction(() => {
    const r = document.querySelector('.state-node[data-state="Cart"]').getBoundingClientRect();
    const c = document.querySelector('.react-flow').getBoundingClientRect();
    return Math.abs(r.x + r.width / 2 - (c.x + c.width / 2)) < 3 && Math.abs(r.y + r.height / 2 - (c.y + c.height / 2)) < 3;
  });
  const b = await cart.boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + 8);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2 + 120, b.y + 60, { steps: 8 });
  await page.mouse.up();
  const moved = await drawing(page);
  assert.ok(moved.states.Cart.x > laidOut.x + 50, `Cart was dragged: ${laidOut.x} → ${moved.states.Cart.x}`);
  const ofCart = moved.edges.filter((e) => e.from === 'Cart' || e.to === 'Cart');
  assert.equal(ofCart.length, 4);
  assert.ok(ofCart.every((e) => !e.routed), 'Cart’s edges leave their routes');
  assert.ok(moved.edges.filter((e) => !ofCart.includes(e)).every((e) => e.routed), 'the others keep theirs');
  for (const e of ofCart) {
    // A smoothstep's ends are its handles': on the border, or a handle's radius past it.
    const ends = [...e.d.matchAll(/-?[\d.]+/g)].map(Number);
    const start = { x: ends[0], y: ends[1] };
    const end = { x: ends.at(-2), y: ends.at(-1) };
    assert.ok(sideOf(start, moved.states[e.from], 4) && sideOf(end, moved.states[e.to], 4), `${e.from} → ${e.to} stays attached: ${e.d}`);
  }

  await page.getByRole('button', { name: 'Layout' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('.react-flow__edge-path')].every((p) => p.classList.contains('routed')));
  const again = await drawing(page);
  assert.deepEqual(again.states.Cart, laidOut, 'Cart is back where the layout puts it');
  assert.equal(again.edges.length, 21);
  assert.deepEqual(app.errors, []);
});
