import { describe, expect, it } from 'vitest';
import type { EdgeRoute } from './elkLayout';
import { edgeKey } from './flow';
import { overlaps } from './geometry';
import { inPlace, orthogonalPath, placeLabels, routeEdges, type RoutedEdge } from './routes';

// A above B; A → B straight down, B → A back up their right-hand sides.
const A = { x: 0, y: 0, width: 250, height: 80 };
const B = { x: 0, y: 140, width: 250, height: 80 };
const down: EdgeRoute = { points: [{ x: 125, y: 80 }, { x: 125, y: 140 }] };
const back: EdgeRoute = { points: [{ x: 250, y: 180 }, { x: 280, y: 180 }, { x: 280, y: 40 }, { x: 250, y: 40 }] };
const routes = new Map([
  [edgeKey('A', 'B'), down],
  [edgeKey('B', 'A'), back],
]);
const states = new Map([
  ['A', A],
  ['B', B],
]);

describe('edges along their routes', () => {
  it('draws a route as straight segments through its bends', () => {
    expect(orthogonalPath(back.points)).toBe('M250,180 L280,180 L280,40 L250,40');
    expect(orthogonalPath([{ x: 0.04, y: 1.26 }, { x: 0.04, y: 9 }])).toBe('M0,1.3 L0,9');
  });

  it('holds a route to its states staying where the layout put them, and as tall', () => {
    expect(inPlace({ ...B, x: 0.2 }, B)).toBe(true);
    expect(inPlace({ ...B, y: 180 }, B), 'B dragged 40 px down').toBe(false);
    expect(inPlace({ ...B, height: 96 }, B), 'B grew a check line: its bottom border moved').toBe(false);
    expect(inPlace(null, B), 'B not measured yet').toBe(false);
  });

  it('puts labels on their routes clear of states and of each other', () => {
    // A second edge into B, 12 px to the right (ELK keeps parallel edges apart).
    const twin = down.points.map((p) => ({ ...p, x: p.x + 12 }));
    const at = placeLabels(
      [
        { id: 'one', route: down.points, width: 60, height: 16 },
        { id: 'two', route: twin, width: 60, height: 16 },
        { id: 'loop', route: back.points, width: 60, height: 16 },
      ],
      [A, B],
    );
    const boxes = [...at].map(([id, p]) => ({ id, x: p.x - 30, y: p.y - 8, width: 60, height: 16 }));
    expect(boxes).toHaveLength(3);
    for (const b of boxes) for (const s of [A, B]) expect(overlaps(b, s), `${b.id} covers a state`).toBe(false);
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlaps(a, b), `${a.id} covers ${b.id}`).toBe(false);
    // The loop's label sits on its longest segment, the climb up the right-hand side.
    expect(at.get('loop')!.x).toBe(280);
  });

  it('hands routed edges their route and where their states were, and leaves the others to React Flow', () => {
    const edge = (id: string, source: string, target: string, label?: string): RoutedEdge => ({ id, type: 'routed', source, target, sourceHandle: 'out', targetHandle: 'in', label });
    const [ab, seen] = routeEdges([edge('next:A>B', 'A', 'B', '3× · 1.2 s'), edge('seen:B>C', 'B', 'C', 'taken')], routes, states);
    expect(ab.data).toMatchObject({ route: down.points, laidOut: { source: A, target: B } });
    expect(ab.data!.labelAt).toBeDefined();
    expect(seen.data).toBeUndefined();
  });
});
