import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderInAdmin, signIn, stubFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { SampleUploadPage } from './SampleUploadPage';

describe('Sample Upload (/sample-uploading)', () => {
  it('uploads the picked image through a presigned URL and shows it', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = stubFetch(
      router(
        {
          'POST /api/users/me/get-upload-url': () => ok('/uploads/samples/1-robin.png?sig=abc'),
          'PUT /uploads/samples': () => jsonResponse({ success: true, data: { key: 'samples/1-robin.png', url: '/files/samples/1-robin.png' } }),
        },
        USER,
      ),
    );
    renderInAdmin(<SampleUploadPage />, { path: '/sample-uploading', routePath: '/sample-uploading' });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'robin.png', { type: 'image/png' });
    await user.upload(await screen.findByTestId('sample-file-input'), file);
    expect(await screen.findByRole('img', { name: 'Uploaded sample' })).toHaveAttribute('src', '/files/samples/1-robin.png');
    expect(calls.find((c) => c.url === '/api/users/me/get-upload-url')?.body).toEqual({
      serverSidePath: 'samples/robin.png',
      contentType: 'image/png',
    });
    expect(calls.find((c) => c.method === 'PUT')?.headers.get('Content-Type')).toBe('image/png');
    expect(document.title).toBe('Sample Upload | Presswork');
  });
});
