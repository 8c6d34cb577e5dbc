"""The optimal strategy (Koyama and Lai 1993): the exact search and the strategy that plays its tree."""
