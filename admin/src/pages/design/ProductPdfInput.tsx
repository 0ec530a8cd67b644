import { Box, Link } from '@mui/material';
import { UploadInput } from '../../components/UploadInput';

/** The product PDF: upload one (the same presigned-URL flow as site logos) or type its address. */
export function ProductPdfInput({ disabled }: { disabled?: boolean }) {
  return (
    <Box sx={{ width: '100%', my: 1 }}>
      <UploadInput
        source="productPdf"
        folder="designs"
        contentType="application/pdf"
        label="Product PDF"
        buttonLabel="Upload PDF"
        accept="application/pdf,.pdf"
        testId="product-pdf-file-input"
        disabled={disabled}
        after={(value) => (
          <Link href={value} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ display: 'inline-block', mt: 0.5 }}>
            Open the product PDF
          </Link>
        )}
      />
    </Box>
  );
}
