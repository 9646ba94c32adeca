"""Playing and rating games: the game loop, players, matches, tournaments, ratings, opening books, tuning, self-play statistics."""
