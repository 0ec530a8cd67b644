import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAuthProvider } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import type { User } from '../../../../common/api/sites';
import { useSiteInfo } from '../../layout/SiteInfoContext';
import { usePageTitle } from '../../layout/usePageTitle';
import { isHexColour } from '../../lib/format';
import { safeRedirectTarget } from '../../providers/redirect';
import { WELCOME_DURATION_MS, WELCOME_MIN_WIDTH, WelcomeAnimation } from './WelcomeAnimation';

export const EMPTY_CREDENTIALS_MESSAGE = 'Please input your email and password';

type LoginState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'success'; user: User }
  | { status: 'error'; message: string };

export function LoginPage() {
  usePageTitle('Login');
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { site } = useSiteInfo();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<LoginState>({ status: 'idle' });
  const [showWelcome, setShowWelcome] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.status === 'loading' || state.status === 'success') return;
    if (!email.trim() || !password) {
      setState({ status: 'error', message: EMPTY_CREDENTIALS_MESSAGE });
      return;
    }
    setState({ status: 'loading' });
    try {
      const user = (await authProvider!.login({ email: email.trim(), password })) as User;
      setState({ status: 'success', user });
      await queryClient.invalidateQueries({ queryKey: ['auth'] });
      const target = safeRedirectTarget(searchParams.get('redirect'));
      const go = () => navigate(target, { replace: true });
      if (window.innerWidth < WELCOME_MIN_WIDTH) {
        go();
      } else {
        setShowWelcome(true);
        timer.current = setTimeout(go, WELCOME_DURATION_MS);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setState({ status: 'error', message: message || 'Login failed' });
    }
  };

  const busy = state.status === 'loading' || state.status === 'success';

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 2,
      }}
    >
      {showWelcome && state.status === 'success' ? <WelcomeAnimation firstName={state.user.firstName} /> : null}
      <Card
        data-testid="sign-in-card"
        // The site's own colour even before the app's theme follows it (a `?site=` sign-in page).
        sx={{ width: '100%', maxWidth: 380, borderTop: 4, borderColor: isHexColour(site?.theme?.mainColor) ? site.theme.mainColor : 'primary.main' }}
      >
        <CardContent sx={{ p: 4 }}>
          <Box sx={{ textAlign: 'center', mb: 3 }}>
            {site?.logo ? (
              <Box component="img" src={site.logo} alt={site.name} sx={{ maxHeight: 56, maxWidth: '100%', mb: 1 }} />
            ) : null}
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
              {site?.name || 'Presswork'}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Sign in to continue
            </Typography>
          </Box>
          <Box component="form" noValidate onSubmit={submit}>
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="username"
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={busy}
              variant="outlined"
              margin="normal"
              fullWidth
            />
            <TextField
              label="Password"
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={busy}
              variant="outlined"
              margin="normal"
              fullWidth
            />
            {state.status === 'error' ? (
              <Alert severity="error" sx={{ mt: 2 }} role="alert">
                {state.message}
              </Alert>
            ) : null}
            <Button
              type="submit"
              variant="contained"
              size="large"
              fullWidth
              disabled={busy}
              sx={{ mt: 3 }}
              startIcon={state.status === 'loading' ? <CircularProgress size={18} color="inherit" /> : undefined}
            >
              {state.status === 'loading' ? 'Signing in…' : 'Sign in'}
            </Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}

export default LoginPage;
