"""Live tracking in the window: the tracking thread's hand-over, its status, the figures' height check and
the synthetic camera feed."""
