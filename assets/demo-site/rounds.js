// Twenty rounds: after a random pause (seeded by ?seed) a button appears; clicking it ends
// the round. The page measures appearance-to-click itself, so any client (Statewright,
// Playwright, a person) is timed by the same clock, and shows the figures when done.
(() => {
  const ROUNDS = Number(new URLSearchParams(location.search).get('rounds')) || 20;
  let state = Number(new URLSearchParams(location.search).get('seed')) || 1;
  // mulberry32: a small seeded generator, so a seed gives the same pauses every time.
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const arena = document.getElementById('arena');
  const progress = document.getElementById('progress');
  const samples = [];

  const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

  function finish() {
    const sorted = [...samples].sort((a, b) => a - b);
    const figures = {
      rounds: samples.length,
      samples_ms: samples.map((s) => Math.round(s * 10) / 10),
      p50_ms: Math.round(percentile(sorted, 50) * 10) / 10,
      p95_ms: Math.round(percentile(sorted, 95) * 10) / 10,
    };
    progress.textContent = 'All rounds done';
    const out = document.getElementById('latency');
    out.textContent = JSON.stringify(figures);
    out.hidden = false;
  }

  function round(n) {
    if (n > ROUNDS) return finish();
    progress.textContent = `Round ${n - 1} of ${ROUNDS}`;
    setTimeout(() => {
      const button = document.createElement('button');
      button.id = 'target';
      button.textContent = `Click me (round ${n})`;
      arena.append(button);
      const appeared = performance.now();
      button.addEventListener('click', (event) => {
        samples.push(event.timeStamp - appeared);
        button.remove();
        round(n + 1);
      }, { once: true });
    }, 200 + random() * 500);
  }
  round(1);
})();
