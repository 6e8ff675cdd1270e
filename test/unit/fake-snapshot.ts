// A registry snapshot over hand-made records, for tests of pure functions that take a snapshot.

export { staticSnapshot as fakeSnapshot } from '../../src/core/discovery/static-snapshot';
