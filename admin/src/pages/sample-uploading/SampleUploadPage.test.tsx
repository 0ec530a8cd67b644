import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { SampleUploadPage } from './SampleUploadPage';

describe('Sample Upload (/sample-uploading)', () => {
  it('uploads the picked image through a presigned URL and shows it', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = fakeFetch(
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
      contentLength: 4,
    });
    expect(calls.find((c) => c.method === 'PUT')?.headers.get('Content-Type')).toBe('image/png');
    expect(document.title).toBe('Sample Upload | Presswork');
  });

  it('with files in a bucket: PUTs to the presigned URL, then reads the address the link came with (where the server checks the file)', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const bucketUrl = 'http://bucket.example/presswork/incoming/samples/1-robin.png?X-Amz-Signature=abc';
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/users/me/get-upload-url': () => jsonResponse({ success: true, data: bucketUrl }, 200, { 'X-File-Url': 'http://localhost:3000/files/samples/1-robin.png' }),
          'PUT http://bucket.example/': () => new Response(null, { status: 200 }),
          'GET http://localhost:3000/files/samples/1-robin.png': () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } }),
        },
        USER,
      ),
    );
    renderInAdmin(<SampleUploadPage />, { path: '/sample-uploading', routePath: '/sample-uploading' });
    await user.upload(await screen.findByTestId('sample-file-input'), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'robin.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Uploaded sample' })).toHaveAttribute('src', '/files/samples/1-robin.png');
    expect(calls.find((c) => c.method === 'PUT')?.url).toBe(bucketUrl);
    expect(calls.some((c) => c.method === 'GET' && c.url === 'http://localhost:3000/files/samples/1-robin.png')).toBe(true);
  });
});
