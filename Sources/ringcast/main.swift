print("ringcast")
