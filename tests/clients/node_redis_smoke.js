// A typical application's use of Debian's node-redis (v4) against the server on the port given
// as the only argument: strings, a hash, a list, a set, a sorted set, MULTI/EXEC, a WATCH retry,
// a blocking pop woken by another client, and pub/sub. Exits non-zero at the first surprise.
'use strict';
const assert = require('assert/strict');
const { createClient } = require('redis');

async function main(port) {
  const url = `redis://127.0.0.1:${port}`;
  const c = createClient({ url });
  c.on('error', (e) => { console.error('client error', e); process.exit(1); });
  await c.connect();
  await c.flushAll();

  assert.equal(await c.set('user:1:name', 'ada'), 'OK');
  assert.equal(await c.get('user:1:name'), 'ada');
  assert.equal(await c.incrBy('hits', 5), 5);

  assert.equal(await c.hSet('user:1', { name: 'ada', visits: '1' }), 2);
  assert.equal(await c.hIncrBy('user:1', 'visits', 2), 3);
  assert.deepEqual({ ...(await c.hGetAll('user:1')) }, { name: 'ada', visits: '3' });

  assert.equal(await c.rPush('queue', ['a', 'b', 'c']), 3);
  assert.deepEqual(await c.lRange('queue', 0, -1), ['a', 'b', 'c']);
  assert.equal(await c.lPop('queue'), 'a');

  assert.equal(await c.sAdd('tags', ['x', 'y', 'x']), 2);
  assert.deepEqual((await c.sMembers('tags')).sort(), ['x', 'y']);
  assert.equal(await c.sIsMember('tags', 'y'), true);

  await c.zAdd('board', [{ score: 5, value: 'p1' }, { score: 9, value: 'p2' }]);
  assert.equal(await c.zIncrBy('board', 10, 'p1'), 15);
  assert.deepEqual(await c.zRangeWithScores('board', 0, -1),
                   [{ value: 'p2', score: 9 }, { value: 'p1', score: 15 }]);
  assert.equal(await c.zRank('board', 'p1'), 1);

  assert.deepEqual(await c.multi().incr('counter').incr('counter').get('counter').exec(),
                   [1, 2, '2']);

  // WATCH retry: another client changes the key once; the second attempt commits.
  const other = c.duplicate();
  await other.connect();
  let attempts = 0;
  for (;;) {
    attempts++;
    const iso = await c.executeIsolated(async (ic) => {
      await ic.watch('balance');
      const now = Number((await ic.get('balance')) || 0);
      if (attempts === 1) await other.set('balance', '100');
      return ic.multi().set('balance', String(now + 1)).exec().catch((e) => e);
    });
    if (Array.isArray(iso)) break;
    assert.ok(attempts < 3, 'WATCH never committed: ' + iso);
  }
  assert.equal(attempts, 2);
  assert.equal(await c.get('balance'), '101');

  // A blocking pop on an empty list, woken by a push from another client.
  const waiting = other.blPop('jobs', 5);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(await c.lPush('jobs', 'job-1'), 1);
  assert.deepEqual(await waiting, { key: 'jobs', element: 'job-1' });
  assert.equal(await other.blPop('jobs', 0.2), null);  // times out

  // Pub/sub with a separate subscriber connection.
  const sub = c.duplicate();
  await sub.connect();
  const got = new Promise((resolve) => sub.subscribe('news', (m, ch) => resolve([ch, m])));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(await c.publish('news', 'hello'), 1);
  assert.deepEqual(await got, ['news', 'hello']);
  await sub.unsubscribe('news');

  await sub.quit();
  await other.quit();
  await c.quit();
  console.log('node-redis smoke: all steps passed');
}

main(Number(process.argv[2])).catch((e) => { console.error(e); process.exit(1); });
