import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SETTING_LIST } from '../../../../common/siteSettings';
import { ADMIN, renderInAdmin, signIn } from '../../test/helpers';
import { answerSite as answer, siteSaves as saves, type Env } from '../../test/siteEdit';
import { SiteEdit } from './SiteEdit';

const savedEnv = (call: { body: unknown }) => (call.body as { settings: { env: Env } }).settings.env;

describe('Site editor: Connections, drawn from the settings registry', () => {
  it('each service is a group of its registry keys with their help; a switch, a choice and a number write the environment variables, checked as typed', async () => {
    signIn(ADMIN);
    const { calls } = answer([
      { key: 'HP_BASE_URL', value: 'https://api.example.org' },
      { key: 'HP_API_KEY', value: '********' },
    ]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = screen.getByRole('region', { name: 'Connections' });
    const provider = within(section).getByRole('button', { name: /Print provider \(HP Site Flow\)/ });
    expect(provider).toHaveTextContent('2 of 11 set');
    expect(within(section).getByRole('button', { name: /Store \(Shopify\)/ })).toHaveTextContent('not set up');
    await userEvent.click(provider);

    // Every key an admin sets in the group, labelled by its name, with the registry's help.
    for (const def of SETTING_LIST.filter((d) => d.group === 'provider')) expect(within(section).getByText(def.help)).toBeInTheDocument();
    expect(within(section).getByRole('textbox', { name: 'HP_API_KEY (secret)' })).toHaveValue('********');
    expect(within(section).getByRole('textbox', { name: 'HP_DESTINATION' })).toHaveAttribute('placeholder', 'presswork');

    await userEvent.click(within(section).getByRole('switch', { name: 'HP_AUTO_SEND' }));
    const poll = within(section).getByRole('textbox', { name: 'HP_POLL_AFTER_MINUTES' });
    await userEvent.type(poll, '2');
    // The server's own sentence, as typed.
    expect(within(section).getByText('HP_POLL_AFTER_MINUTES must be a whole number of minutes, 5 or more (it is "2")')).toBeInTheDocument();
    await userEvent.type(poll, '0');
    expect(within(section).queryByText(/HP_POLL_AFTER_MINUTES must/)).not.toBeInTheDocument();

    await userEvent.click(within(section).getByRole('combobox', { name: 'HP_AUTH_SCHEME' }));
    await userEvent.click(await screen.findByRole('option', { name: 'oneflow' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(saves(calls)[0])).toEqual([
      { key: 'HP_BASE_URL', value: 'https://api.example.org' },
      { key: 'HP_API_KEY', value: '********' },
      { key: 'HP_AUTO_SEND', value: '1' },
      { key: 'HP_POLL_AFTER_MINUTES', value: '20' },
      { key: 'HP_AUTH_SCHEME', value: 'oneflow' },
    ]);
  });
});
