RATES = {"NL": 0.21, "DE": 0.19}


def rate(country):
    return RATES[country]
