import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, type RecordedCall } from '../../test/helpers';
import { openSection } from '../../test/siteEdit';
import { validateEnvValue } from './PipelineSettings';
import { SiteEdit } from './SiteEdit';

type Env = Array<{ key: string; value: string }>;
const site = (env: Env) => ({ id: 2, name: 'Hope Harbour Charity', slug: 'hope-harbour', logo: null, theme: { mainColor: '#1e88e5' }, settings: { env }, createdAt: '2025-03-07T10:00:00.000Z' });

/** The site, its users; a save answers `onSave` (the saved record by default). */
function answer(env: Env, onSave?: (call: RecordedCall) => Response) {
  return fakeFetch((call) => {
    if (call.method === 'PUT' && call.url === '/api/admin/sites/2') return onSave ? onSave(call) : jsonResponse(call.body);
    if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(site(env));
    if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
    return jsonResponse({ success: true, data: ADMIN });
  });
}

const saves = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/api/admin/sites/2');
const savedEnv = (call: RecordedCall) => (call.body as { settings: { env: Env } }).settings.env;

/** The generic environment variables list's value input of `key`. */
const genericValue = (key: string) => within(screen.getByDisplayValue(key).closest('li') as HTMLElement).getByRole('textbox', { name: 'Value' });

async function openEditor(env: Env, onSave?: (call: RecordedCall) => Response) {
  signIn(ADMIN);
  const answered = answer(env, onSave);
  renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
  await screen.findByDisplayValue('Hope Harbour Charity');
  return { ...answered, section: await openSection('Charity pipeline') };
}

describe('the generic list and the section check a known setting with the registry rule the server uses', () => {
  const check = (key: string, value: string) => validateEnvValue(value, { settings: { env: [{ key, value }] } }, { finalSource: 'settings.env.0.value' });
  it('checks the list id, the sender and the mail server; other keys and empty values pass', () => {
    expect(check('ADESTRA_BUYERS_LIST_ID', '42')).toBeUndefined();
    expect(check('ADESTRA_BUYERS_LIST_ID', 'buyers')).toBe('ADESTRA_BUYERS_LIST_ID: "buyers" is not a list id (digits).');
    expect(check('ECARD_FROM', 'cards@hope.org')).toBeUndefined();
    expect(check('ECARD_FROM', 'Hope Harbour <cards@hope.org>')).toBeUndefined();
    expect(check('ECARD_FROM', 'cards at hope')).toMatch(/^ECARD_FROM: "cards at hope" is not an e-mail address/);
    expect(check('SMTP_URL', 'smtps://user:********@mail.hope.org:465')).toBeUndefined();
    expect(check('SMTP_URL', 'SMTP://mail.hope.org:587')).toBeUndefined();
    expect(check('SMTP_URL', 'mail.hope.org:587')).toMatch(/^SMTP_URL: The mail server URL must start with smtp:\/\/ or smtps:\/\//);
    expect(check('HP_AUTO_SEND', 'sometimes')).toMatch(/^HP_AUTO_SEND must be 1, true, yes, on/);
    expect(check('OTHER', 'anything')).toBeUndefined();
    expect(check('SMTP_URL', '')).toBeUndefined();
  });
});

describe('Site editor: Charity pipeline', () => {
  it('a switch adds PIPELINE_* = 1 to the environment variables, and off removes it', async () => {
    const { section, calls } = await openEditor([{ key: 'PIPELINE_ADD_TO_ADESTRA', value: '1' }]);
    const crm = within(section).getByRole('switch', { name: "Add buyers to Raiser's Edge" });
    expect(crm).not.toBeChecked();
    expect(within(section).getByRole('switch', { name: 'Add buyers to Adestra' })).toBeChecked();
    expect(within(section).getAllByText('run automatically on each paid order')).toHaveLength(3);

    await userEvent.click(crm);
    expect(crm).toBeChecked();
    expect(genericValue('PIPELINE_ADD_TO_CRM')).toHaveValue('1');

    await userEvent.click(within(section).getByRole('switch', { name: 'Add buyers to Adestra' }));
    expect(screen.queryByDisplayValue('PIPELINE_ADD_TO_ADESTRA')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(saves(calls)[0])).toEqual([{ key: 'PIPELINE_ADD_TO_CRM', value: '1' }]);
  });

  it('typing a field sets its variable; the generic list shows it, and an edit there shows in the section', async () => {
    const { section, calls } = await openEditor([{ key: 'ADESTRA_BUYERS_LIST_ID', value: '12' }]);
    const from = within(section).getByRole('textbox', { name: 'E-card sender address' });
    await userEvent.type(from, 'cards@hope.org');
    expect(genericValue('ECARD_FROM')).toHaveValue('cards@hope.org');

    const list = within(section).getByRole('textbox', { name: 'Adestra list for buyers (only those who consented)' });
    expect(list).toHaveValue('12');
    await userEvent.type(genericValue('ADESTRA_BUYERS_LIST_ID'), '34');
    expect(list).toHaveValue('1234');
    await userEvent.type(list, '5');
    expect(genericValue('ADESTRA_BUYERS_LIST_ID')).toHaveValue('12345');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(saves(calls)[0])).toEqual([
      { key: 'ADESTRA_BUYERS_LIST_ID', value: '12345' },
      { key: 'ECARD_FROM', value: 'cards@hope.org' },
    ]);
  });

  it('the masked mail server shows as the server sent it and goes back unchanged', async () => {
    const { section, calls } = await openEditor([{ key: 'SMTP_URL', value: 'smtps://cards:********@mail.hope.org:465' }]);
    const smtp = within(section).getByRole('textbox', { name: 'Mail server' });
    expect(smtp).toHaveValue('smtps://cards:********@mail.hope.org:465');
    expect(within(section).getByText('smtp://host:587 or smtps://user:password@host:465; the password is kept secret')).toBeInTheDocument();
    await userEvent.type(within(section).getByRole('textbox', { name: "Raiser's Edge consent source" }), 'Website');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(saves(calls)[0])).toEqual([
      { key: 'SMTP_URL', value: 'smtps://cards:********@mail.hope.org:465' },
      { key: 'RE_CONSENT_SOURCE', value: 'Website' },
    ]);
  });

  it('a sender that is no address blocks Save and says so in the section', async () => {
    const { section, calls } = await openEditor([]);
    await userEvent.type(within(section).getByRole('textbox', { name: 'Mail server' }), 'mail.hope.org:587');
    await userEvent.type(within(section).getByRole('textbox', { name: 'E-card sender address' }), 'cards at hope');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText(/^ECARD_FROM: "cards at hope" is not an e-mail address/)).toBeInTheDocument();
    expect(within(section).getByText(/^SMTP_URL: The mail server URL must start with smtp:\/\/ or smtps:\/\//)).toBeInTheDocument();
    expect(saves(calls)).toHaveLength(0);
    // Fixed in the section: the error goes, and Save sends.
    const smtp = within(section).getByRole('textbox', { name: 'Mail server' });
    await userEvent.clear(smtp);
    await userEvent.type(smtp, 'smtp://mail.hope.org:587');
    const from = within(section).getByRole('textbox', { name: 'E-card sender address' });
    await userEvent.clear(from);
    await userEvent.type(from, 'cards@hope.org');
    await waitFor(() => expect(within(section).queryByText(/is not an e-mail address/)).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(saves(calls)[0])).toEqual([
      { key: 'SMTP_URL', value: 'smtp://mail.hope.org:587' },
      { key: 'ECARD_FROM', value: 'cards@hope.org' },
    ]);
  });

  it("the server's refusal of the consent names shows in the section", async () => {
    const refusal = 'RE_CONSENT_SOURCE: "Shop" is not one of the CRM\'s consent sources ("Website", "Event").';
    const { section, calls } = await openEditor([], (call) =>
      savedEnv(call).some((v) => v.value === 'Shop')
        ? jsonResponse({ success: false, error: refusal, field: 'settings.env', details: [{ field: 'settings.env', message: refusal }] }, 400)
        : jsonResponse(call.body),
    );
    const source = within(section).getByRole('textbox', { name: "Raiser's Edge consent source" });
    await userEvent.type(source, 'Shop');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(refusal);
    // Corrected, it saves: the refusal does not stick to the form.
    await userEvent.clear(source);
    await userEvent.type(source, 'Web');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(2));
    expect(savedEnv(saves(calls)[1])).toEqual([{ key: 'RE_CONSENT_SOURCE', value: 'Web' }]);
  });
});
