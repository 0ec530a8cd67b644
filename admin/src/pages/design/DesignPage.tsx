import { useCallback, useState } from 'react';
import { ResourceContextProvider, Title, useCanAccess, useDataProvider } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Alert, Box, Card, Tab, Tabs, Typography } from '@mui/material';
import type { Design } from '../../../../common/api/printProduction';
import { RequireAccess } from '../../components/RequireAccess';
import { LoadingScreen } from '../../layout/LoadingScreen';
import { usePageTitle } from '../../layout/usePageTitle';
import { errorMessage } from '../../lib/format';
import { useViewportWidth } from '../../lib/useViewport';
import type { AppDataProvider } from '../../providers/dataProvider';
import { NEW_DESIGN_NAME } from '../../providers/printProduction';
import { AddToPrintJobsButton } from './AddToPrintJobsButton';
import { DesignEditor } from './DesignEditor';
import { DesignInfoForm } from './DesignInfoForm';

/** Narrower windows get only a message: the editor needs room (spec §2). */
export const MIN_DESIGN_SCREEN_WIDTH = 768;
export const SMALL_SCREEN_MESSAGE = 'Please use bigger screen to see this page.';
export const SAVE_INFO_FIRST_MESSAGE = 'Please save Design info and continue';
export const UNSAVED_EDITOR_WORK_QUESTION =
  'The design editor has unsaved changes. They will be lost if you switch to Design Info now. Continue?';

type DesignTab = 'editor' | 'info';

export function designQueryKey(id: string) {
  return ['designs', 'detail', id] as const;
}

function DesignView({ id }: { id: string }) {
  usePageTitle('Design');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const width = useViewportWidth();
  const isNew = id === 'new';
  const openInfo = searchParams.get('t') === 'info';
  const onDemand = searchParams.has('onDemand') && searchParams.get('onDemand') !== '0';

  // A new design has nothing to edit yet: it starts on Design Info, with the reason unless t=info asked for it.
  const [tab, setTab] = useState<DesignTab>(isNew || openInfo ? 'info' : 'editor');
  const [saveInfoFirst, setSaveInfoFirst] = useState(isNew && !openInfo);
  const [editorDirty, setEditorDirty] = useState(false);

  const design = useQuery({
    queryKey: designQueryKey(id),
    queryFn: () => dataProvider.getDesign(id),
    enabled: !isNew,
    retry: false,
  });
  const record = design.data ?? undefined;
  // Only an admin or the creator may save or delete (canAccess with the record's createdByUserId).
  const { canAccess: canSave } = useCanAccess({
    resource: 'designs',
    action: isNew ? 'create' : 'edit',
    record,
    enabled: isNew || Boolean(record),
  });
  const { canAccess: canDelete } = useCanAccess({ resource: 'designs', action: 'delete', record, enabled: Boolean(record) });

  const { refetch } = design;
  const reloadDesign = useCallback(() => void refetch(), [refetch]);

  const selectTab = (next: DesignTab) => {
    if (next === tab) return;
    if (next === 'editor' && isNew) {
      setSaveInfoFirst(true);
      setTab('info');
      return;
    }
    if (next === 'info' && editorDirty && !window.confirm(UNSAVED_EDITOR_WORK_QUESTION)) return;
    setEditorDirty(false);
    setSaveInfoFirst(false);
    setTab(next);
  };

  const onSaved = (saved: Design, wasNew: boolean) => {
    if (wasNew) {
      navigate(`/design/${saved.id}`);
    } else {
      queryClient.setQueryData(designQueryKey(id), saved);
    }
  };

  if (width < MIN_DESIGN_SCREEN_WIDTH) {
    return (
      <Box sx={{ py: 8, px: 2, textAlign: 'center' }}>
        <Title title="Design" />
        <Typography variant="h6" component="p" color="text.secondary">
          {SMALL_SCREEN_MESSAGE}
        </Typography>
      </Box>
    );
  }
  if (!isNew && design.isPending) return <LoadingScreen />;
  if (!isNew && design.isError) {
    return (
      <Box sx={{ py: 4 }}>
        <Title title="Design" />
        <Typography color="error" role="alert">
          {errorMessage(design.error)}
        </Typography>
      </Box>
    );
  }

  return (
    <Box sx={{ mt: 2, mb: 4 }}>
      <Title title="Design" />
      <Card>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, px: 3, pt: 2 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            {record?.name ?? `New design: ${NEW_DESIGN_NAME}`}
          </Typography>
          {record ? <AddToPrintJobsButton design={record} unsavedEditorChanges={tab === 'editor' && editorDirty} reloading={design.isFetching} /> : null}
        </Box>
        <Tabs value={tab} onChange={(_event, next: DesignTab) => selectTab(next)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="editor" label="Editor" />
          <Tab value="info" label="Design Info" />
        </Tabs>
        {saveInfoFirst ? (
          <Alert severity="warning" onClose={() => setSaveInfoFirst(false)} sx={{ m: 2, mb: 0 }}>
            {SAVE_INFO_FIRST_MESSAGE}
          </Alert>
        ) : null}
        {tab === 'editor' && record ? (
          <DesignEditor designId={record.id} onDemand={onDemand} onDirtyChange={setEditorDirty} onDesignSaved={reloadDesign} />
        ) : null}
        {tab === 'info' ? (
          <DesignInfoForm
            design={record ?? null}
            canSave={Boolean(canSave)}
            canDelete={Boolean(canDelete)}
            onSaved={onSaved}
            onDeleted={() => navigate('/designs')}
          />
        ) : null}
      </Card>
    </Box>
  );
}

/** /design/:id, where id "new" creates a design; optional query `onDemand` and `t=info`. */
export function DesignPage() {
  const { id = 'new' } = useParams<{ id: string }>();
  return (
    <RequireAccess resource="designs" action={id === 'new' ? 'create' : 'show'}>
      <ResourceContextProvider value="designs">
        <DesignView key={id} id={id} />
      </ResourceContextProvider>
    </RequireAccess>
  );
}

export default DesignPage;
