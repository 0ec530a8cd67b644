import { ArrayInput, regex, required, SaveButton, SimpleForm, SimpleFormIterator, TextInput, Toolbar } from 'react-admin';
import { Typography } from '@mui/material';
import { toColourInputValue } from '../../lib/format';
import { LogoInput } from './LogoInput';
import { PipelineSettings, validateEnvValue } from './PipelineSettings';
import { PreflightSettings } from './PreflightSettings';
import { PrintProfileSettings } from './PrintProfileSettings';
import { BatchSettings } from './BatchSettings';
import { ShipBySettings } from './ShipBySettings';
import { RegistrySettings } from './RegistrySettings';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const validateSlug = [required(), regex(SLUG_PATTERN, 'Use lower-case letters, digits and single hyphens only')];
const validateName = [required()];
const validateEnvKey = [required()];
const validateEnvValues = [validateEnvValue];

// Sites are never deleted from the UI (spec §2 gives no delete action): Save only.
function SiteFormToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}

/** Fields shared by the create and edit screens of a site. */
export function SiteForm() {
  return (
    // Leaving with typed edits (Back, a menu link, closing the tab) asks first.
    <SimpleForm toolbar={<SiteFormToolbar />} defaultValues={{ theme: { mainColor: '#000000' }, settings: { env: [] } }} warnWhenUnsavedChanges>
      <TextInput source="name" label="Name" validate={validateName} sx={{ maxWidth: 560 }} />
      <TextInput
        source="slug"
        label="Slug"
        validate={validateSlug}
        helperText="Lower-case letters, digits and single hyphens; drives the CMS, API and webhook URLs"
        sx={{ maxWidth: 560 }}
      />
      <TextInput
        source="theme.mainColor"
        label="Theme main colour"
        type="color"
        defaultValue="#000000"
        format={(value: unknown) => toColourInputValue(value)}
        sx={{ maxWidth: 200 }}
      />
      <LogoInput />
      <RegistrySettings />
      <PreflightSettings />
      <PrintProfileSettings />
      <BatchSettings />
      <ShipBySettings />
      <PipelineSettings />
      <Typography variant="subtitle1" sx={{ mt: 2, fontWeight: 600 }}>
        Environment variables
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Secret values are shown as ******** and kept unchanged unless you type a new one.
      </Typography>
      <ArrayInput source="settings.env" label={false}>
        <SimpleFormIterator inline disableReordering>
          <TextInput source="key" label="Key" validate={validateEnvKey} helperText={false} sx={{ minWidth: 220 }} />
          <TextInput source="value" label="Value" validate={validateEnvValues} helperText={false} sx={{ minWidth: 320 }} />
        </SimpleFormIterator>
      </ArrayInput>
    </SimpleForm>
  );
}
