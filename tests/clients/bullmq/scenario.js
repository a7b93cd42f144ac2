#!/usr/bin/env node
// BullMQ 5 acceptance scenario: a Queue, Workers, QueueEvents, a FlowProducer and a job
// scheduler against one Redis-compatible server, then one canonical JSON summary of what
// happened on the last line of stdout ("SUMMARY {...}"). Everything BullMQ does on the server
// goes through its Lua scripts (EVALSHA/EVAL) and, for QueueEvents, XADD/XREAD BLOCK on a
// stream, so this runs only where scripting and streams work.
//
// Usage: node scenario.js [host] [port]   (or BULLMQ_HOST / BULLMQ_PORT; default 127.0.0.1:6379)
//        BULLMQ_TIMEOUT_MS: hard limit of the whole run (default 60000); on expiry the summary
//        printed so far carries "timedOut": true and the exit status is 2.
// The summary holds only what must be the same on every correct server: per job its final
// state, attempts, return value, failure reason, whether its delay/backoff was honoured, the
// QueueEvents seen for it in stream order (without timestamps), and the queue's final counts.
// tests/clients/bullmq_test.py runs this against redis-server and plinth-server and compares.
'use strict';

const { Queue, Worker, QueueEvents, FlowProducer, UnrecoverableError, Job } = require('bullmq');
const IORedis = require('ioredis');

const host = process.argv[2] || process.env.BULLMQ_HOST || '127.0.0.1';
const port = Number(process.argv[3] || process.env.BULLMQ_PORT || 6379);
const hardTimeoutMs = Number(process.env.BULLMQ_TIMEOUT_MS || 60000);
const connection = { host, port, maxRetriesPerRequest: null, enableOfflineQueue: true,
                     retryStrategy: (times) => (times > 20 ? null : 100) };

const MAIN = 'acc-main';
const PRIO = 'acc-prio';
const DELAY_MS = 800;
const EXP_BACKOFF_MS = 150;     // retries after >= 150 ms, then >= 300 ms
const FIXED_BACKOFF_MS = 250;   // retries after >= 250 ms each
const TICKS = 3;                // job scheduler: every 200 ms, limit 3

const t0 = Date.now();
const log = (...a) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(2)}s] ${a.join(' ')}\n`);

// ---- what is recorded ----
const errors = new Set();            // client-side errors (worker/queue 'error' events, throws)
const events = new Map();            // label -> [event descriptions], QueueEvents order
const idLabel = new Map();           // jobId -> label (custom ids are their own label)
const attemptStarts = new Map();     // label -> [ms since t0 of each processor start]
const attemptFails = new Map();      // label -> [ms since t0 of each processor throw]
const prioOrder = [];                // PRIO queue processing order
let tickCount = 0;
const summary = { server: `${host}:${port}`, timedOut: false };

function noteError(where, err) {
  const msg = `${where}: ${err && err.message ? err.message : String(err)}`;
  if (errors.size < 20 && !errors.has(msg)) log('error', msg);
  if (errors.size < 20) errors.add(msg);
}

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

function labelOf(queueName, jobId) {
  const key = `${queueName}/${jobId}`;
  if (!idLabel.has(key)) {
    // scheduler-made ids embed a timestamp: name them by order of first appearance
    if (String(jobId).startsWith('repeat:')) idLabel.set(key, `tick#${++tickCount}`);
    else idLabel.set(key, queueName === MAIN ? String(jobId) : `${queueName}/${jobId}`);
  }
  return idLabel.get(key);
}

// The event fields that are the same on every run (not 'delay', a timestamp).
const EVENT_FIELDS = ['prev', 'data', 'returnvalue', 'failedReason', 'attemptsMade', 'name'];
function describe(name, args) {
  const parts = [name];
  for (const f of EVENT_FIELDS) {
    if (args && args[f] !== undefined) parts.push(`${f}=${typeof args[f] === 'string' ? args[f] : JSON.stringify(args[f])}`);
  }
  return parts.join(' ');
}

function watch(queueEvents, queueName) {
  const emit = queueEvents.emit.bind(queueEvents);
  queueEvents.emit = (name, args, ...rest) => {
    if (name === 'error') noteError(`queueEvents ${queueName}`, args);
    else if (args && typeof args === 'object' && args.jobId !== undefined && !String(name).includes(':')) {
      push(events, labelOf(queueName, args.jobId), describe(name, args));
    }
    return emit(name, args, ...rest);
  };
}

// Canonical JSON: object keys sorted at every level.
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v === undefined ? null : v);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, pred, ms) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ---- processors ----
async function mainProcessor(job) {
  const label = labelOf(MAIN, job.id);
  push(attemptStarts, label, Date.now() - t0);
  const fail = (msg, Cls = Error) => {
    push(attemptFails, label, Date.now() - t0);
    throw new Cls(msg);
  };
  switch (job.name) {
    case 'plain':
      await job.updateProgress(25);
      await job.updateProgress({ stage: 'half', pct: 50 });
      await job.updateProgress(100);
      return { doubled: job.data.n * 2, echo: job.data };
    case 'delayed':
      return 'late';
    case 'retry':  // fails on its first two attempts, then succeeds
      if (job.attemptsMade < 2) fail(`transient failure ${job.attemptsMade + 1}`);
      return `ok after ${job.attemptsMade + 1}`;
    case 'doomed':
      fail(`permanent failure ${job.attemptsMade + 1}`);
      break;
    case 'fatal':
      fail('unrecoverable', UnrecoverableError);
      break;
    case 'ephemeral':
      return 'gone';
    case 'child':
      return job.data.v * 10;
    case 'parent': {
      const values = await job.getChildrenValues();
      return Object.values(values).reduce((a, b) => a + b, 0);
    }
    case 'tick':
      return 'tock';
    default:
      return null;
  }
  return null;
}

async function jobReport(queue, id, delay) {
  const job = await Job.fromId(queue, id);
  if (!job) return { state: 'removed' };
  const r = {
    state: await job.getState(),
    attemptsMade: job.attemptsMade,
    returnvalue: job.returnvalue === undefined ? null : job.returnvalue,
    failedReason: job.failedReason === undefined ? null : job.failedReason,
    stacktraces: (job.stacktrace || []).length,
    progress: job.progress,
    finishedAfterProcessed: !!job.finishedOn && job.finishedOn >= job.processedOn,
  };
  if (delay !== undefined) r.delayHonoured = job.processedOn - job.timestamp >= delay ? 'yes' : 'no';
  return r;
}

// Each gap between a failed attempt and the next start must be at least the backoff.
function backoffHonoured(label, delays) {
  const starts = attemptStarts.get(label) || [];
  const fails = attemptFails.get(label) || [];
  if (starts.length < delays.length + 1) return 'no';
  for (let i = 0; i < delays.length; i++) {
    if (starts[i + 1] - fails[i] < delays[i]) return 'no';
  }
  return 'yes';
}

async function scenario() {
  // A probe connection: clean slate and the server's answer to the commands BullMQ needs.
  const probe = new IORedis(connection);
  probe.on('error', (e) => noteError('probe', e));
  await probe.flushall();

  const queue = new Queue(MAIN, { connection });
  queue.on('error', (e) => noteError('queue', e));
  const prio = new Queue(PRIO, { connection });
  prio.on('error', (e) => noteError('prio queue', e));
  const queueEvents = new QueueEvents(MAIN, { connection, lastEventId: '0-0' });
  const prioEvents = new QueueEvents(PRIO, { connection, lastEventId: '0-0' });
  watch(queueEvents, MAIN);
  watch(prioEvents, PRIO);
  await Promise.all([queue.waitUntilReady(), prio.waitUntilReady(),
                     queueEvents.waitUntilReady(), prioEvents.waitUntilReady()]);

  // Priority jobs first, with no worker yet: their processing order is then fixed.
  await prio.add('p', { p: 5 }, { jobId: 'p5', priority: 5 });
  await prio.add('p', { p: 1 }, { jobId: 'p1', priority: 1 });
  await prio.add('p', { p: 3 }, { jobId: 'p3', priority: 3 });
  await prio.add('p', { p: 1 }, { jobId: 'p1b', priority: 1 });
  await prio.add('p', { p: 0 }, { jobId: 'p0' });
  summary.prioCountsBefore = await prio.getJobCounts('wait', 'prioritized', 'active', 'completed');

  // The main queue's jobs.
  await queue.add('plain', { n: 21 }, { jobId: 'plain1' });
  await queue.add('delayed', {}, { jobId: 'delay1', delay: DELAY_MS });
  await queue.add('retry', {}, { jobId: 'retryexp', attempts: 3,
                                 backoff: { type: 'exponential', delay: EXP_BACKOFF_MS } });
  await queue.add('retry', {}, { jobId: 'retryfixed', attempts: 3,
                                 backoff: { type: 'fixed', delay: FIXED_BACKOFF_MS } });
  await queue.add('doomed', {}, { jobId: 'doomed', attempts: 2,
                                  backoff: { type: 'fixed', delay: 100 } });
  await queue.add('fatal', {}, { jobId: 'fatal', attempts: 3 });
  await queue.add('ephemeral', {}, { jobId: 'ephemeral', removeOnComplete: true });
  // a duplicate custom id is ignored: the job keeps its first data
  await queue.add('plain', { n: 99 }, { jobId: 'plain1' });
  const flow = new FlowProducer({ connection });
  flow.on('error', (e) => noteError('flow', e));
  await flow.add({
    name: 'parent', queueName: MAIN, opts: { jobId: 'parent' },
    children: [
      { name: 'child', queueName: MAIN, data: { v: 1 }, opts: { jobId: 'childa' } },
      { name: 'child', queueName: MAIN, data: { v: 2 }, opts: { jobId: 'childb' } },
    ],
  });
  summary.countsAfterAdd = await queue.getJobCounts('wait', 'delayed', 'waiting-children',
                                                     'active', 'completed', 'failed');

  const worker = new Worker(MAIN, mainProcessor, { connection, concurrency: 1 });
  worker.on('error', (e) => noteError('worker', e));
  const prioWorker = new Worker(PRIO, async (job) => { prioOrder.push(job.id); return job.data.p; },
                                { connection, concurrency: 1 });
  prioWorker.on('error', (e) => noteError('prio worker', e));

  await queue.upsertJobScheduler('ticker', { every: 200, limit: TICKS },
                                 { name: 'tick', data: { k: 'v' } });

  // Done when every job reached its end in the event stream.
  const finals = ['plain1', 'delay1', 'retryexp', 'retryfixed', 'doomed', 'fatal', 'ephemeral',
                  'childa', 'childb', 'parent'];
  const endsFailed = new Set(['doomed', 'fatal']);
  const ended = (label) => (events.get(label) || []).some(
    (e) => e.startsWith(endsFailed.has(label) ? 'failed' : 'completed')) &&
    (label !== 'doomed' || events.get(label).includes('retries-exhausted attemptsMade=2'));
  await waitFor('the main queue jobs', () => finals.every(ended), 40000);
  await waitFor('the prio queue jobs', () => prioOrder.length === 5 &&
                (events.get(`${PRIO}/p5`) || []).some((e) => e.startsWith('completed')), 10000);
  await waitFor('the scheduler ticks', () => {
    for (let i = 1; i <= TICKS; i++) {
      if (!(events.get(`tick#${i}`) || []).some((e) => e.startsWith('completed'))) return false;
    }
    return true;
  }, 10000);
  await sleep(500);  // trailing events, and no extra tick

  summary.jobs = {};
  for (const id of finals) summary.jobs[id] = await jobReport(queue, id, id === 'delay1' ? DELAY_MS : undefined);
  summary.jobs.retryexp.backoffHonoured = backoffHonoured('retryexp', [EXP_BACKOFF_MS, 2 * EXP_BACKOFF_MS]);
  summary.jobs.retryfixed.backoffHonoured = backoffHonoured('retryfixed', [FIXED_BACKOFF_MS, FIXED_BACKOFF_MS]);
  summary.jobs.doomed.backoffHonoured = backoffHonoured('doomed', [100]);
  for (const id of ['p5', 'p1', 'p3', 'p1b', 'p0']) summary.jobs[`${PRIO}/${id}`] = await jobReport(prio, id);
  summary.prioOrder = prioOrder;
  summary.attempts = Object.fromEntries([...attemptStarts].map(([k, v]) => [k, v.length]));
  summary.ticks = tickCount;
  summary.schedulers = (await queue.getJobSchedulers()).map((s) => ({ key: s.key, name: s.name }));
  summary.countsAtEnd = await queue.getJobCounts('wait', 'delayed', 'waiting-children', 'active',
                                                 'completed', 'failed', 'prioritized', 'paused');
  summary.completedIds = (await queue.getJobs(['completed'])).map((j) => labelOf(MAIN, j.id)).sort();
  summary.failedIds = (await queue.getJobs(['failed'])).map((j) => labelOf(MAIN, j.id)).sort();

  // A failed job retried by hand runs again (and fails again).
  const doomed = await Job.fromId(queue, 'doomed');
  await doomed.retry('failed');
  await waitFor('the manual retry', () => (events.get('doomed') || []).includes('retries-exhausted attemptsMade=3'), 10000);
  summary.jobs.doomed.afterManualRetry = await jobReport(queue, 'doomed');

  // Pause/resume, then the queue's removal leaves nothing of it behind.
  await queue.pause();
  summary.pausedIsPaused = await queue.isPaused();
  await queue.resume();
  await Promise.all([worker.close(), prioWorker.close(), flow.close()]);
  await queue.removeJobScheduler('ticker');
  await queue.obliterate({ force: true });
  await prio.obliterate({ force: true });
  const left = (await probe.keys('*')).map((k) => k.replace(/\d{10,}/g, 'N')).sort();
  summary.keysAfterObliterate = left;
  await Promise.all([queueEvents.close(), prioEvents.close(), queue.close(), prio.close()]);
  summary.events = Object.fromEntries([...events].map(([k, v]) => [k, [...v]]));
  await probe.quit();
}

function finish(status) {
  summary.errors = [...errors].sort();
  process.stdout.write(`SUMMARY ${canonical(summary)}\n`);
  process.exit(status);
}

setTimeout(() => {
  summary.timedOut = true;
  noteError('scenario', new Error(`hard timeout of ${hardTimeoutMs} ms`));
  summary.events = Object.fromEntries(events);
  finish(2);
}, hardTimeoutMs);

scenario().then(() => finish(0), (e) => {
  noteError('scenario', e);
  summary.events = Object.fromEntries(events);
  finish(1);
});
