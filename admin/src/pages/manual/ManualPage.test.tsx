import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LocationDisplay, renderInAdmin, signIn, fakeFetch, ADMIN } from '../../test/helpers';
import { router } from '../../test/printProduction';
import { HomePage } from '../home/HomePage';
import { ManualPage, guideHtml } from './ManualPage';

describe("Home's manual: the operator's guide", () => {
  it('Home links the manual, which opens /manual', async () => {
    signIn(ADMIN);
    fakeFetch(router({}, ADMIN));
    renderInAdmin(
      <>
        <HomePage />
        <LocationDisplay />
      </>,
      { path: '/home', routePath: '*' },
    );
    const link = await screen.findByRole('link', { name: 'manual' });
    expect(link).toHaveAttribute('href', '/manual');
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
    await userEvent.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/manual');
  });

  it("shows docs/operators-guide.md: how store orders reach Jobs, and nothing of the file's HTML is run", async () => {
    signIn(ADMIN);
    fakeFetch(router({}, ADMIN));
    renderInAdmin(<ManualPage />, { path: '/manual' });
    const guide = await screen.findByRole('article', { name: "Operator's guide" });
    expect(within(guide).getByRole('heading', { level: 1 })).toHaveTextContent("Operator's guide");
    expect(within(guide).getByRole('heading', { name: '2. Store orders reach Jobs' })).toBeInTheDocument();
    expect(guide).toHaveTextContent('Make in house');
    expect(guideHtml('<script>alert(1)</script>')).not.toContain('<script>');
  });
});
