"""Battles: campaigns, sides, battles, turns, orders, log entries; services, selectors, tasks, views."""
