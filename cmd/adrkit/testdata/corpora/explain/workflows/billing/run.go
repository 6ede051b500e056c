package billing
