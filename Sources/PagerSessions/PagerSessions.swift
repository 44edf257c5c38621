// PagerSessions
