// A browser test that fails is run once more, its first failure printed in full. Debian's Chromium in its new headless
// mode now and then stops producing animation frames for a page under load: a click then waits the whole 30 s for
// the element to be "stable" (Playwright measures that across two frames) on a page that is otherwise fine (seen once
// in CI, docs/testing.md "Browser tests"). A second failure fails the run as before.
import { jest } from '@jest/globals';

jest.retryTimes(1, { logErrorsBeforeRetry: true });
