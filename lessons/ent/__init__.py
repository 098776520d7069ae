"""The ENT over CAS: connectors, tickets, profiles, pupils' links, matching (docs/deploy.md)."""
