/**
 * TODO(shared/messages.ts): texts the accounts and shell screens need that MSG does not hold
 * yet. Those quoted by the specs are verbatim; "ours" marks texts the specs are silent on.
 * They belong in MSG; until they move there, each is still spelled once, here.
 */
export const PENDING_MSG = {
  landing: {
    earnMoney: 'I Want to Earn Money',
    needHelp: 'Need Help With Tasks',
    hourlyPay: '$25-75 per hour',
    sameDayPay: 'Same-day pay',
    noExperience: 'No experience needed',
    signUpTime: 'Sign up in 30 seconds',
    postTime: 'Post in 60 seconds',
    activeUsers: '10,000+',
    earned: '$2.1M+',
    jobsCompleted: '50,000+',
  },
  nav: {
    adminTools: 'Admin Tools',
    adminModeActive: 'Admin Mode Active',
    myEarnings: 'My Earnings',
    profileSettings: 'Profile Settings',
    adminDashboard: 'Admin Dashboard',
  },
  signIn: {
    continueToDashboard: 'Continue to Dashboard',
  },
  signUp: {
    adminUnavailable: 'Admin (Unavailable)',
  },
  passwordReset: {
    codeSent: 'We sent a password reset code to your email.', // ours
    done: 'Password reset successfully! You can now sign in with your new password.', // ours
    failed: 'Failed to reset password', // ours
  },
  profile: {
    andMore: (n: number) => `... and ${n} more`,
    recentlyJoined: 'Recently joined',
    duplicateSkill: (skill: string) => `${skill} is already in your skills`, // ours
    signedOutEverywhere: 'You have been signed out on all devices', // ours
  },
  legal: {
    yourTrustMatters: 'Your Trust Matters',
  },
} as const;
