print("rendering")
