// This feature's screens for the app's router, each its own chunk (React.lazy). Kept out of
// index.ts, which re-exports them: see README "Web app layout".
export const loadAdminDashboardScreen = () => import('./screens/AdminDashboardScreen');
export const loadAdminUserScreen = () => import('./screens/AdminUserScreen');
