// The server as main.ts starts it, which crashes on SIGUSR2: a promise rejected with no one to catch
// it (CRASH_WITH=rejection, the default) or an exception thrown with no one to catch it
// (CRASH_WITH=exception). For the crash fault test only: the crash comes when the test says.
import '../../server/src/main.ts';

process.on('SIGUSR2', () => {
  if (process.env.CRASH_WITH === 'exception') throw new Error('crash test: an exception no one catches');
  void Promise.reject(new Error('crash test: a rejection no one catches'));
});
