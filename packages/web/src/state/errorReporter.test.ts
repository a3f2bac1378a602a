import { expect, describe as group, it } from 'vitest';
import { type ClientErrorReport, createErrorReporter, QUEUE_SIZE, REPORTS_PER_MINUTE } from './errorReporter';

/** A reporter on a hand-moved clock whose timers run when the clock passes them. */
function harness() {
  let clock = 1_000_000;
  const timers: { at: number; work: () => void }[] = [];
  const sent: ClientErrorReport[] = [];
  const reporter = createErrorReporter({
    release: 'r1',
    send: (report) => sent.push(report),
    href: () => 'https://appdesk.example.com/admin/admin/users?search=13800138000&token=abc',
    userAgent: 'Chrome/131',
    now: () => clock,
    setTimer: (work, ms) => timers.push({ at: clock + ms, work }),
  });
  const advance = (ms: number) => {
    const until = clock + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > until) break;
      timers.shift();
      clock = next.at;
      next.work();
    }
    clock = until;
  };
  return { reporter, sent, advance };
}

group('the error reporter', () => {
  it('sends an error and a rejection once each, scrubbed, after gathering a moment', () => {
    const { reporter, sent, advance } = harness();
    reporter.report('error', new TypeError('x is undefined for 13912345678'));
    reporter.report('rejection', 'timeout');
    expect(sent).toHaveLength(0);
    advance(1_000);
    expect(sent.map((r) => [r.kind, r.message, r.path, r.release, r.repeats])).toEqual([
      ['error', 'TypeError: x is undefined for ‹已隐去›', '/admin/admin/users', 'r1', 1],
      ['rejection', 'Promise 被拒绝：timeout', '/admin/admin/users', 'r1', 1],
    ]);
    advance(10 * 60_000);
    expect(sent).toHaveLength(2);
  });

  it('folds repeats of one error into one report with a count', () => {
    const { reporter, sent, advance } = harness();
    const error = new Error('same');
    for (let i = 0; i < 30; i += 1) reporter.report('error', error);
    advance(1_000);
    expect(sent.map((r) => r.repeats)).toEqual([30]);
  });

  it(`sends at most ${REPORTS_PER_MINUTE} a minute and keeps at most ${QUEUE_SIZE} waiting`, () => {
    const { reporter, sent, advance } = harness();
    for (let i = 0; i < 200; i += 1) reporter.report('error', new Error(`boom ${i}`));
    advance(59_000);
    expect(sent).toHaveLength(REPORTS_PER_MINUTE);
    expect(reporter.dropped()).toBe(200 - QUEUE_SIZE);
    // The minute after the first report left, the rest of the queue goes.
    advance(2_000);
    expect(sent).toHaveLength(QUEUE_SIZE);
    expect(sent.map((r) => r.message).slice(-1)).toEqual([`Error: boom ${QUEUE_SIZE - 1}`]);
    // In no 60 s window did more than the allowance leave (all 60 at one instant, the other 40 a minute later).
    expect(new Set(sent.slice(0, REPORTS_PER_MINUTE).map((r) => r.message)).size).toBe(REPORTS_PER_MINUTE);
  });
});
