// Home's "Stock running low": the items at or under their reorder point, each with how many days
// it lasts at the last 14 days' use (the server's forecast, the one Needs attention gives) and a
// link to the item, where Receive and Count are. Nothing shows while no item is low.
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, Link, List, ListItem, ListItemText, Typography } from '@mui/material';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import { stockLastsWords } from '../../../../common/api/stock';
import { dataProvider } from '../../providers/dataProvider';

/** How many items Home lists; the Stock screen has them all. */
const SHOWN = 10;

export function LowStockCard() {
  const low = useQuery({ queryKey: ['stock-low'], queryFn: () => dataProvider.getLowStock(SHOWN), staleTime: 60_000 });
  if (low.error) {
    return (
      <Card sx={{ mt: 2 }}>
        <CardContent>
          <Typography color="error">Stock running low could not be loaded: {(low.error as Error).message}</Typography>
        </CardContent>
      </Card>
    );
  }
  const list = low.data?.list ?? [];
  if (!list.length) return null;
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="low-stock-heading">
      <CardContent>
        <Typography id="low-stock-heading" variant="h6" component="h2" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Inventory2OutlinedIcon color="warning" /> Stock running low
        </Typography>
        <List dense aria-label="Stock running low">
          {list.map(({ item, daysLeft }) => (
            <ListItem key={item.id} disableGutters>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`/stock-items/${item.id}/show`}>
                    {item.name}
                  </Link>
                }
                secondary={`${item.available} ${item.unit} available (reorder point ${item.reorderPoint}); ${stockLastsWords(daysLeft)}${item.reorderQuantity > 0 ? `; reorder ${item.reorderQuantity} ${item.unit}` : ''}`}
              />
            </ListItem>
          ))}
        </List>
        <Link component={RouterLink} to="/stock-items">
          All stock
        </Link>
      </CardContent>
    </Card>
  );
}
