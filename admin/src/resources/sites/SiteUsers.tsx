import { useState } from 'react';
import { Datagrid, FunctionField, Pagination, ReferenceManyField, TextField, useRefresh } from 'react-admin';
import { Box, Button, Card, CardContent, IconButton, Tooltip, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import type { User } from '../../../../common/api/sites';
import { formatDate } from '../../lib/format';
import { UsersModal } from './UsersModal';

type Editing = { user: User | null } | null;

/** The users of one site, with the users modal to add or edit them. */
export function SiteUsers({ siteId }: { siteId: number | string }) {
  const refresh = useRefresh();
  const [editing, setEditing] = useState<Editing>(null);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Users
          </Typography>
          <Button variant="contained" size="small" startIcon={<PersonAddIcon />} onClick={() => setEditing({ user: null })}>
            Add user
          </Button>
        </Box>
        <ReferenceManyField<{ id: number | string }, User>
          record={{ id: siteId }}
          reference="users"
          target="siteId"
          perPage={25}
          sort={{ field: 'createdAt', order: 'DESC' }}
          pagination={<Pagination rowsPerPageOptions={[25]} />}
          empty={<Typography color="text.secondary">No user found</Typography>}
        >
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <FunctionField<User> label="Name" render={(u) => [u.firstName, u.lastName].filter(Boolean).join(' ')} />
            <TextField source="email" label="Email" />
            <TextField source="role" label="Role" />
            <FunctionField<User> label="Created at" render={(u) => formatDate(u.createdAt)} />
            <FunctionField<User>
              label=""
              textAlign="right"
              render={(u) => (
                <Tooltip title="Edit user">
                  <IconButton size="small" aria-label={`Edit ${u.email}`} onClick={() => setEditing({ user: u })}>
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            />
          </Datagrid>
        </ReferenceManyField>
      </CardContent>
      <UsersModal
        open={editing !== null}
        siteId={siteId}
        user={editing?.user ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => refresh()}
      />
    </Card>
  );
}
