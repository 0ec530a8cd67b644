// Every browser test fails on a console error or an uncaught exception of any page it drove
// (e2e/browser.ts watches them; expectFailedRequest declares a deliberate refusal).
import { afterEach } from 'vitest';
import { takeConsoleProblems } from './browser';

afterEach(() => {
  const problems = takeConsoleProblems();
  if (problems.length) throw new Error(`console errors in the browser:\n${problems.join('\n')}`);
});
