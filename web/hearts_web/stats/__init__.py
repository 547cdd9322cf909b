"""The statistics dialog: figures per level and rules, the trend, online matches and the daily
calendar."""
