//! *Go here*: the route a run from the start is expected to walk to a state, lit on the
//! graph, with the button that starts that run.

import type { Route } from '../bindings';

export function RouteBanner({ target, route, onGo, onClear }: { target: string; route: Route; onGo: () => void; onClear: () => void }) {
  return (
    <div className="route-banner" data-testid="route-banner">
      <strong>Go to {target}</strong>
      <span className="route-states" title={route.states.join(' → ')}>
        {route.states.join(' → ')} · ~{(route.cost_ms / 1000).toFixed(1)} s
      </span>
      <button className="primary" onClick={onGo}>
        Go…
      </button>
      <button onClick={onClear} aria-label="clear route">
        Clear
      </button>
    </div>
  );
}
