export const loadAdminDashboardScreen = () => import('./screens/AdminDashboardScreen');
