// placeholder until the first type lands
