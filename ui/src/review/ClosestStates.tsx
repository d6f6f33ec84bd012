//! Why no state matched, as a small table: the states the engine found closest, how many of
//! their checks hold on this page, and which ones fail. The engine names only the failing
//! checks; the holding ones are counted.

import type { Diagnosis } from '../bindings';

export function ClosestStates({ closest }: { closest: Diagnosis[] }) {
  if (!closest.length) return null;
  return (
    <table className="closest-states" data-testid="closest-states">
      <caption>The closest states</caption>
      <thead>
        <tr>
          <th>State</th>
          <th>Checks holding</th>
          <th>Failing checks</th>
        </tr>
      </thead>
      <tbody>
        {closest.map((d) => (
          <tr key={d.state} data-testid="closest-state">
            <td className="closest-name">{d.state}</td>
            <td className="closest-score">
              <meter min={0} max={Math.max(d.total, 1)} value={d.passed} aria-label={`${d.passed} of ${d.total} checks of ${d.state} hold`} /> {d.passed}/{d.total}
            </td>
            <td>
              <ul className="checks">
                {d.failing.map((c) => (
                  <li key={c} className="fail">
                    ✗ <code>{c}</code>
                  </li>
                ))}
                {d.passed > 0 && (
                  <li className="pass">
                    ✓ {d.passed} other{d.passed === 1 ? '' : 's'} hold{d.passed === 1 ? 's' : ''}
                  </li>
                )}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
