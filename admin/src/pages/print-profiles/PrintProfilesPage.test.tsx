import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PrintProfile } from '../../../../common/api/printProfiles';
import { menuEntriesFor } from '../../layout/menuConfig';
import { ADMIN, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { fail, ok, router } from '../../test/printProduction';
import { PrintProfilesPage } from './PrintProfilesPage';

const FOGRA: PrintProfile = { id: 3, name: 'Coated FOGRA39 (ISO 12647-2:2004)', colorSpace: 'CMYK', deviceClass: 'prtr', version: 2, siteId: null, size: 654_352, createdAt: '2026-11-20T10:00:00Z' };

describe('Print profiles (/print-profiles)', () => {
  it('lists the profiles by name; an upload sends the file as multipart and shows the new one; a refusal shows the server\'s sentence', async () => {
    signIn(ADMIN);
    let list = [FOGRA];
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/print-profiles': (call) => {
            const file = (call.body as FormData).get('file') as File;
            if (file.name === 'monitor.icc') return fail("The profile is a display (monitor) profile (RGB), not a printer's output profile: a print file needs the CMYK output ('prtr') profile your printer prints with");
            const made: PrintProfile = { ...FOGRA, id: 4, name: 'Press 7 uncoated', siteId: null, size: file.size };
            list = [...list, made];
            return ok(made);
          },
          'GET /api/print-profiles': () => ok(list),
        },
        ADMIN,
      ),
    );
    renderInAdmin(<PrintProfilesPage />, { path: '/print-profiles', routePath: '/print-profiles' });
    const row = await screen.findByTestId('print-profile-3');
    expect(within(row).getByText('Coated FOGRA39 (ISO 12647-2:2004)')).toBeInTheDocument();
    expect(within(row).getByText('Every site')).toBeInTheDocument();
    expect(within(row).getByText('CMYK output, ICC v2')).toBeInTheDocument();

    const input = screen.getByLabelText('ICC profile file');
    await userEvent.upload(input, new File([new Uint8Array(300)], 'monitor.icc', { type: 'application/vnd.iccprofile' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(/The profile is a display \(monitor\) profile/)).toBeInTheDocument();

    await userEvent.upload(input, new File([new Uint8Array(400)], 'press7.icc', { type: 'application/vnd.iccprofile' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('“Press 7 uncoated” is profile 4.')).toBeInTheDocument();
    expect(await screen.findByTestId('print-profile-4')).toBeInTheDocument();
    const upload = calls.filter((c) => c.method === 'POST' && c.url === '/api/print-profiles').at(-1)!;
    expect(upload.body).toBeInstanceOf(FormData);
    // The browser sets the multipart boundary itself.
    expect(upload.headers.get('Content-Type')).toBeNull();
  });

  it('is in the admins\' Setup menu only', () => {
    expect(menuEntriesFor('admin', { running: {} }).map((e) => e.label)).toContain('Print profiles');
    expect(menuEntriesFor('user', { running: {} }).map((e) => e.label)).not.toContain('Print profiles');
  });
});
